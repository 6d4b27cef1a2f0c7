// A C++ program that throws and catches: a recursive-descent expression evaluator with
// variables. Usage: calc [ROUNDS] (default 1000 rounds of the nested throw loop).
// Errors are thrown deep inside the parser (several frames), caught per line
// in a loop, rethrown with `throw;`, caught by base class and by catch(...),
// plus library-thrown exceptions (std::stoi, vector::at, std::map::at,
// bad_alloc, exception_ptr round-trips) and RAII cleanup during unwinding.
#include <cctype>
#include <cstdlib>
#include <cstdio>
#include <limits>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using num = long long;

int live_guards = 0;     // RAII objects currently alive
int guards_destroyed = 0;

struct Guard {
  std::string name;
  explicit Guard(std::string n) : name(std::move(n)) { ++live_guards; }
  ~Guard() { --live_guards; ++guards_destroyed; }
};

struct ParseError : std::runtime_error {
  size_t pos;
  ParseError(const std::string& m, size_t p)
      : std::runtime_error(m + " at " + std::to_string(p)), pos(p) {}
};
struct MathError : std::domain_error {
  using std::domain_error::domain_error;
};
struct Quit { int code; };   // not derived from std::exception

class Parser {
 public:
  Parser(const std::string& s, std::map<std::string, num>& vars)
      : s_(s), vars_(vars) {}

  num statement() {
    Guard g("statement");
    skip();
    size_t save = i_;
    std::string id = ident();
    skip();
    if (!id.empty() && i_ < s_.size() && s_[i_] == '=') {
      ++i_;
      num v = expr();
      end();
      vars_[id] = v;
      return v;
    }
    i_ = save;
    num v = expr();
    end();
    return v;
  }

 private:
  const std::string& s_;
  std::map<std::string, num>& vars_;
  size_t i_ = 0;
  int depth_ = 0;

  void skip() { while (i_ < s_.size() && s_[i_] == ' ') ++i_; }
  void end() {
    skip();
    if (i_ != s_.size()) throw ParseError("trailing input '" + s_.substr(i_) + "'", i_);
  }
  std::string ident() {
    size_t b = i_;
    while (i_ < s_.size() && (std::isalpha((unsigned char)s_[i_]) || s_[i_] == '_')) ++i_;
    return s_.substr(b, i_ - b);
  }
  num expr() {
    Guard g("expr");
    num v = term();
    for (;;) {
      skip();
      if (i_ < s_.size() && s_[i_] == '+') { ++i_; v += term(); }
      else if (i_ < s_.size() && s_[i_] == '-') { ++i_; v -= term(); }
      else return v;
    }
  }
  num term() {
    Guard g("term");
    num v = factor();
    for (;;) {
      skip();
      if (i_ < s_.size() && (s_[i_] == '*' || s_[i_] == '/' || s_[i_] == '%')) {
        char op = s_[i_++];
        num r = factor();
        if (op == '*') v *= r;
        else if (r == 0) throw MathError(op == '/' ? "division by zero" : "modulo by zero");
        else v = op == '/' ? v / r : v % r;
      } else {
        return v;
      }
    }
  }
  num factor() {
    Guard g("factor");
    if (++depth_ > 50) throw ParseError("nesting too deep", i_);
    struct Dec { int& d; ~Dec() { --d; } } dec{depth_};
    skip();
    if (i_ >= s_.size()) throw ParseError("unexpected end", i_);
    char c = s_[i_];
    if (c == '(') {
      ++i_;
      num v = expr();
      skip();
      if (i_ >= s_.size() || s_[i_] != ')') throw ParseError("expected ')'", i_);
      ++i_;
      return v;
    }
    if (c == '-') { ++i_; return -factor(); }
    if (std::isdigit((unsigned char)c)) {
      size_t b = i_;
      while (i_ < s_.size() && std::isalnum((unsigned char)s_[i_])) ++i_;
      size_t used = 0;
      // std::stol lives in the compiled libc++ (string.cpp): throws
      // std::invalid_argument / std::out_of_range from library code.
      num v = std::stoll(s_.substr(b, i_ - b), &used, 0);
      if (used != i_ - b) throw ParseError("bad number '" + s_.substr(b, i_ - b) + "'", b);
      return v;
    }
    std::string id = ident();
    if (id.empty()) throw ParseError(std::string("unexpected '") + c + "'", i_);
    if (id == "quit") throw Quit{static_cast<int>(vars_.size())};
    if (id == "boom") throw 42;  // a non-class exception
    if (id == "parse") {         // parse(token): std::stoll on a raw token
      skip();
      if (i_ >= s_.size() || s_[i_] != '(') throw ParseError("expected '('", i_);
      size_t b = ++i_;
      while (i_ < s_.size() && s_[i_] != ')') ++i_;
      if (i_ >= s_.size()) throw ParseError("expected ')'", i_);
      std::string tok = s_.substr(b, i_++ - b);
      return std::stoll(tok);    // std::invalid_argument from compiled libc++
    }
    if (id == "nth") {           // nth(k): k-th prime from a vector, uses .at()
      skip();
      if (i_ >= s_.size() || s_[i_] != '(') throw ParseError("expected '('", i_);
      ++i_;
      num k = expr();
      skip();
      if (i_ >= s_.size() || s_[i_] != ')') throw ParseError("expected ')'", i_);
      ++i_;
      static const std::vector<num> primes = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
      return primes.at(static_cast<size_t>(k));  // std::out_of_range
    }
    return vars_.at(id);  // std::out_of_range for unknown variables
  }
};

// Evaluates one line; logs and rethrows with `throw;` so the caller sees the
// original dynamic type.
num eval_line(const std::string& line, std::map<std::string, num>& vars, int& rethrows) {
  try {
    Parser p(line, vars);
    return p.statement();
  } catch (const MathError&) {
    ++rethrows;
    throw;  // rethrow the same exception object
  }
}

std::exception_ptr saved;

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 1000;
  const char* program[] = {
      "x = 6 * 7",
      "y = x - 2 * (3 + 4)",
      "x + y",
      "z = (x + y) / (y - 28)",
      "17 % (x - 42)",
      "2 + * 3",
      "(1 + 2",
      "12abc + 1",
      "99999999999999999999999",
      "nth(4) * nth(9)",
      "nth(10)",
      "parse(12) + parse( 30)",
      "parse(12) + parse(zz)",
      "unknown + 1",
      "boom",
      "((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))",
      "w = 0x10 + 010",
      "w * 2 )",
      "quit",
      "never reached",
  };
  std::map<std::string, num> vars;
  int ok = 0, failed = 0, rethrows = 0;
  int exit_code = -1;
  for (const char* line : program) {
    try {
      try {
        num v = eval_line(line, vars, rethrows);
        std::printf("%-28s => %lld\n", line, v);
        ++ok;
      } catch (const ParseError& e) {
        std::printf("%-28s !! parse error: %s (pos %zu)\n", line, e.what(), e.pos);
        ++failed;
      } catch (const std::invalid_argument& e) {
        std::printf("%-28s !! invalid_argument\n", line);
        ++failed;
      } catch (const std::out_of_range& e) {
        std::printf("%-28s !! out_of_range\n", line);
        ++failed;
      } catch (const std::exception& e) {
        // MathError arrives here after eval_line's `throw;`; save it for later.
        std::printf("%-28s !! %s\n", line, e.what());
        saved = std::current_exception();
        ++failed;
      } catch (const Quit& q) {
        std::printf("%-28s quit with %d variables\n", line, q.code);
        exit_code = q.code;
        throw;  // propagate to the outer handler
      } catch (...) {
        std::printf("%-28s !! unknown exception\n", line);
        ++failed;
      }
    } catch (const Quit& q) {
      std::printf("outer handler saw Quit{%d}\n", q.code);
      break;
    }
    if (live_guards != 0) std::printf("LEAK: %d guards alive\n", live_guards);
  }

  // exception_ptr round trip
  try {
    if (saved) std::rethrow_exception(saved);
  } catch (const MathError& e) {
    std::printf("rethrown from exception_ptr: %s\n", e.what());
  }

  // bad_alloc from operator new (wasm32 cannot allocate 4 GiB)
  try {
    volatile size_t n = std::numeric_limits<size_t>::max() - 16;
    char* p = new char[n];
    std::printf("unexpected allocation %p\n", static_cast<void*>(p));
  } catch (const std::bad_alloc& e) {
    std::printf("bad_alloc caught\n");
  }

  // exceptions inside a catch block, and std::string growth under unwinding
  std::ostringstream log;
  for (int i = 0; i < rounds; ++i) {
    try {
      try {
        throw std::runtime_error(std::string(i % 50, 'a'));
      } catch (const std::runtime_error& e) {
        log << e.what()[0];
        throw std::logic_error(std::to_string(i));
      }
    } catch (const std::logic_error& e) {
      if (std::stoi(e.what()) != i) std::printf("mismatch at %d\n", i);
    }
  }
  std::printf("nested loop log length %zu\n", log.str().size());
  std::printf("ok=%d failed=%d rethrows=%d guards_destroyed=%d live=%d\n", ok, failed,
              rethrows, guards_destroyed, live_guards);
  std::printf("vars:");
  for (const auto& kv : vars) std::printf(" %s=%lld", kv.first.c_str(), kv.second);
  std::printf("\n");
  return exit_code;
}
