//! A process rove starts that must not outlive it (a browser, a desktop
//! application): what the child itself does between fork and exec.

/// Asks the kernel to kill this process (`SIGKILL`) when the thread that
/// forked it ends, and refuses to go on when `parent` (rove's pid) is gone
/// already (rove died between the fork and this call: no orphan starts).
///
/// Runs in a child between fork and exec (`CommandExt::pre_exec`): it
/// allocates nothing and makes two raw system calls, both
/// async-signal-safe. The caller's `pre_exec` is its one unsafe block.
pub fn die_with_parent(parent: u32) -> std::io::Result<()> {
    rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))?;
    let ppid = rustix::process::Pid::as_raw(rustix::process::getppid());
    if u32::try_from(ppid).ok() != Some(parent) {
        return Err(rustix::io::Errno::SRCH.into());
    }
    Ok(())
}
