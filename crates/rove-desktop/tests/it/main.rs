//! rove-desktop's tests: real applications on a real accessibility bus.
//! Run them inside a desktop (`scripts/desktop-env.sh cargo test -p
//! rove-desktop --test it`); without one they fail with
//! DESKTOP_UNAVAILABLE, they do not skip.

mod calculator;
mod gone;
mod unavailable;
mod x11;

/// gnome-calculator runs once per desktop (a second start hands its
/// window to the first): the tests that start it take turns.
fn one_calculator() -> std::sync::MutexGuard<'static, ()> {
    static CALCULATOR: std::sync::Mutex<()> = std::sync::Mutex::new(());
    CALCULATOR.lock().unwrap_or_else(|p| p.into_inner())
}
