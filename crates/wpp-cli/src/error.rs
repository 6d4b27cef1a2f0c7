//! How an error reaches the user: one line, and an exit status that says whose fault it is.

/// The exit statuses, for `--help` and the man page.
pub const EXIT_STATUS: &str = "\
Exit status:
  0        success (wpp record: the program exited 0)
  1        wpp failed: a file could not be written, or a bug
  2        usage or input error: bad arguments, a missing or unreadable file, a file of
           the wrong kind, a name that names nothing
  N        wpp record: the program's own exit status
  124      wpp record: the program was stopped by --timeout, --fuel or --max-memory
  130, 143 wpp record: the program was stopped by SIGINT (Ctrl-C) or SIGTERM
  134      wpp record: the program trapped
wpp record keeps the profile in every case but 1 and 2.";

/// Whether `e` comes from writing to a closed pipe (`wpp paths ... | head`).
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    let broken_pipe = |c: &(dyn std::error::Error + 'static)| {
        c.downcast_ref::<std::io::Error>().map(|io| io.kind()).or_else(|| c.downcast_ref::<serde_json::Error>().and_then(|j| j.io_error_kind()))
            == Some(std::io::ErrorKind::BrokenPipe)
    };
    e.chain().any(broken_pipe)
}

/// The error and its causes on one line, `what: why: why`, each cause once: a cause whose
/// text its parent already says is left out, I/O errors read as plain words ("no such file
/// or directory", not "No such file or directory (os error 2)"), and a message that spans
/// lines is joined into one.
pub fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = match cause.downcast_ref::<std::io::Error>() {
            Some(io) => io_text(io),
            None => cause.to_string(),
        };
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() || line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// An I/O error as words: the system's message without its number, lower case.
fn io_text(e: &std::io::Error) -> String {
    let s = e.to_string();
    // Also in errors made from another's message, which keep its number.
    let s = match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => &s[..i],
        _ => &s,
    };
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        // "No such file", not "EOF" or "I/O".
        (Some(first), Some(second)) if first.is_uppercase() && second.is_lowercase() => first.to_lowercase().chain(s[first.len_utf8()..].chars()).collect(),
        _ => s.to_owned(),
    }
}

/// 1 when wpp failed (a file it could not write, a bug), 2 for a problem with what it was
/// given (usage, a missing or malformed input). The guest's own statuses are not errors.
pub fn exit_status(e: &anyhow::Error) -> u8 {
    let failure = if let Some(e) = e.downcast_ref::<wpp_record::Error>() {
        e.is_failure()
    } else if let Some(e) = e.downcast_ref::<wpp_report::Error>() {
        e.is_failure()
    } else if let Some(e) = e.downcast_ref::<wpp_html::Error>() {
        e.is_failure()
    } else if let Some(e) = e.downcast_ref::<wpp_export::Error>() {
        e.is_failure()
    } else if let Some(e) = e.downcast_ref::<wpp_dataflow::Error>() {
        e.is_failure()
    } else if let Some(e) = e.downcast_ref::<wpp_profile::Error>() {
        e.is_failure()
    } else if let Some(e) = e.downcast_ref::<wpp_twpp::file::Error>() {
        e.is_failure()
    } else if let Some(e) = e.downcast_ref::<wpp_twpp::recover::Error>() {
        e.is_failure()
    } else if let Some(e) = e.downcast_ref::<wpp_text::expand::Error>() {
        e.is_failure()
    } else {
        // The command's own output failed (stdout, a directory it writes into).
        e.downcast_ref::<std::io::Error>().is_some() || e.downcast_ref::<serde_json::Error>().is_some_and(|j| j.is_io())
    };
    if failure {
        1
    } else {
        2
    }
}

/// An argument the parser refused, as one line like every other error (`wpp: error: ...`,
/// with what clap adds on its own lines: the values possible, a tip, the usage), exit
/// status 2; help and the version are printed as they are.
pub fn usage_error(e: clap::Error) -> std::process::ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) {
        e.exit();
    }
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("For more information"));
    let mut message = lines.next().unwrap_or("bad arguments").trim_start_matches("error: ").to_owned();
    let mut usage = None;
    for l in lines {
        match l.strip_prefix("Usage: ") {
            Some(u) => usage = Some(u.to_owned()),
            None if message.ends_with(':') || l.starts_with('[') => message = format!("{message} {l}"),
            None => message = format!("{message}; {l}"),
        }
    }
    match usage {
        Some(u) => eprintln!("wpp: error: {message} (usage: {u})"),
        None => eprintln!("wpp: error: {message}"),
    }
    std::process::ExitCode::from(e.exit_code().clamp(0, 255) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_once_on_one_line() {
        let io = std::io::Error::from_raw_os_error(2);
        let e = anyhow::Error::new(io).context("lua.wpp").context("lua.wpp");
        assert_eq!(one_line(&e), "lua.wpp: no such file or directory");
        let e = anyhow::anyhow!("first line\n  second line").context("outer");
        assert_eq!(one_line(&e), "outer: first line second line");
        let eof = std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "EOF in header");
        assert_eq!(one_line(&anyhow::Error::new(eof)), "EOF in header");
    }
}
