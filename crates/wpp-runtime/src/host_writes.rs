//! Which bytes of guest memory a WASI (preview 1) call wrote, from its arguments and the
//! memory after it returned: the host writes of the memory dependence semantics
//! (`wpp_model::deps`). A call that failed (`errno` not 0) wrote nothing.
//!
//! The core ABI passes a result of type `T` through a pointer to it (`size` and `fd` are
//! 4 bytes, `timestamp` and `filesize` 8, `fdstat` 24, `filestat` 64, `prestat` 8, an
//! event 32), a string or an array as a pointer and a length, an iovec as
//! `{ buf: u32, len: u32 }`.

/// What the host knows that the arguments do not say.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The bytes of the argument strings and of the environment strings, each with its
    /// terminating zero (`args_get` and `environ_get` write them all).
    pub args_bytes: u64,
    pub args: u64,
    pub environ_bytes: u64,
    pub environ: u64,
}

/// The ranges `(address, length)` that `name` wrote when called with `args` (each
/// argument as an unsigned number) and returned `errno`, reading counts and iovecs from
/// `memory` as it is after the call. `None` for a function this table does not know.
pub fn wasi_writes(name: &str, args: &[u64], errno: u32, memory: &[u8], ctx: &Context) -> Option<Vec<(u64, u64)>> {
    let arg = |i: usize| args.get(i).copied().unwrap_or(0);
    let u32_at = |addr: u64| -> u64 {
        let a = addr as usize;
        memory.get(a..a + 4).map_or(0, |b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as u64)
    };
    // `n` bytes spread over the iovec array at (iovs, len), in order.
    let spread = |iovs: u64, len: u64, mut n: u64| -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        for k in 0..len {
            if n == 0 {
                break;
            }
            let (buf, cap) = (u32_at(iovs + 8 * k), u32_at(iovs + 8 * k + 4));
            let take = cap.min(n);
            if take > 0 {
                out.push((buf, take));
            }
            n -= take;
        }
        out
    };
    let mut w: Vec<(u64, u64)> = Vec::new();
    let known = match name {
        "args_sizes_get" | "environ_sizes_get" => {
            w.extend([(arg(0), 4), (arg(1), 4)]);
            true
        }
        "args_get" => {
            w.extend([(arg(0), 4 * ctx.args), (arg(1), ctx.args_bytes)]);
            true
        }
        "environ_get" => {
            w.extend([(arg(0), 4 * ctx.environ), (arg(1), ctx.environ_bytes)]);
            true
        }
        "clock_res_get" => {
            w.push((arg(1), 8));
            true
        }
        "clock_time_get" => {
            w.push((arg(2), 8));
            true
        }
        "fd_fdstat_get" => {
            w.push((arg(1), 24));
            true
        }
        "fd_filestat_get" => {
            w.push((arg(1), 64));
            true
        }
        "fd_prestat_get" => {
            w.push((arg(1), 8));
            true
        }
        "fd_prestat_dir_name" => {
            w.push((arg(1), arg(2)));
            true
        }
        "fd_read" => {
            let n = u32_at(arg(3));
            w.extend(spread(arg(1), arg(2), n));
            w.push((arg(3), 4));
            true
        }
        "fd_pread" => {
            let n = u32_at(arg(4));
            w.extend(spread(arg(1), arg(2), n));
            w.push((arg(4), 4));
            true
        }
        "fd_write" => {
            w.push((arg(3), 4));
            true
        }
        "fd_pwrite" => {
            w.push((arg(4), 4));
            true
        }
        "fd_readdir" => {
            let used = u32_at(arg(4)).min(arg(2));
            w.extend([(arg(1), used), (arg(4), 4)]);
            true
        }
        "fd_seek" => {
            w.push((arg(3), 8));
            true
        }
        "fd_tell" => {
            w.push((arg(1), 8));
            true
        }
        "path_filestat_get" => {
            w.push((arg(4), 64));
            true
        }
        "path_open" => {
            w.push((arg(8), 4));
            true
        }
        "path_readlink" => {
            let used = u32_at(arg(5)).min(arg(4));
            w.extend([(arg(3), used), (arg(5), 4)]);
            true
        }
        "poll_oneoff" => {
            let n = u32_at(arg(3)).min(arg(2));
            w.extend([(arg(1), 32 * n), (arg(3), 4)]);
            true
        }
        "random_get" => {
            w.push((arg(0), arg(1)));
            true
        }
        "sock_accept" => {
            w.push((arg(2), 4));
            true
        }
        "sock_recv" => {
            let n = u32_at(arg(4));
            w.extend(spread(arg(1), arg(2), n));
            w.extend([(arg(4), 4), (arg(5), 2)]);
            true
        }
        "sock_send" => {
            w.push((arg(3), 4));
            true
        }
        "fd_advise"
        | "fd_allocate"
        | "fd_close"
        | "fd_datasync"
        | "fd_fdstat_set_flags"
        | "fd_fdstat_set_rights"
        | "fd_filestat_set_size"
        | "fd_filestat_set_times"
        | "fd_renumber"
        | "fd_sync"
        | "path_create_directory"
        | "path_filestat_set_times"
        | "path_link"
        | "path_remove_directory"
        | "path_rename"
        | "path_symlink"
        | "path_unlink_file"
        | "proc_exit"
        | "proc_raise"
        | "sched_yield"
        | "sock_shutdown" => true,
        _ => false,
    };
    if !known {
        return None;
    }
    if errno != 0 {
        return Some(Vec::new());
    }
    w.retain(|&(_, len)| len > 0);
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(mem: &mut [u8], at: usize, v: u32) {
        mem[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    /// `fd_read` of 10 bytes into iovecs of 4 and 100 bytes: the first 4, then 6 of the
    /// second, and the count.
    #[test]
    fn fd_read_spreads_over_the_iovecs() {
        let mut mem = vec![0u8; 4096];
        put(&mut mem, 100, 1000);
        put(&mut mem, 104, 4);
        put(&mut mem, 108, 2000);
        put(&mut mem, 112, 100);
        put(&mut mem, 200, 10);
        let w = wasi_writes("fd_read", &[0, 100, 2, 200], 0, &mem, &Context::default()).unwrap();
        assert_eq!(w, [(1000, 4), (2000, 6), (200, 4)]);
        assert_eq!(wasi_writes("fd_read", &[0, 100, 2, 200], 8, &mem, &Context::default()).unwrap(), []);
    }

    #[test]
    fn results_through_pointers() {
        let mem = vec![0u8; 64];
        let ctx = Context { args_bytes: 12, args: 2, ..Context::default() };
        assert_eq!(wasi_writes("fd_write", &[1, 8, 1, 40], 0, &mem, &ctx).unwrap(), [(40, 4)]);
        assert_eq!(wasi_writes("clock_time_get", &[0, 1000, 48], 0, &mem, &ctx).unwrap(), [(48, 8)]);
        assert_eq!(wasi_writes("args_get", &[16, 32], 0, &mem, &ctx).unwrap(), [(16, 8), (32, 12)]);
        assert_eq!(wasi_writes("path_open", &[3, 0, 100, 5, 0, 0, 0, 0, 60], 0, &mem, &ctx).unwrap(), [(60, 4)]);
        assert_eq!(wasi_writes("fd_close", &[3], 0, &mem, &ctx).unwrap(), []);
        assert_eq!(wasi_writes("random_get", &[10, 0], 0, &mem, &ctx).unwrap(), []);
        assert!(wasi_writes("no_such_call", &[], 0, &mem, &ctx).is_none());
    }
}
