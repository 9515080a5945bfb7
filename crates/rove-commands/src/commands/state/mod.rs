//! The session's stored state: `cookies` and `storage`
//! (`cookies_storage.rs`), and `state save|load`, Playwright's
//! storage-state files (`file.rs`; local storage is restored in a hidden
//! tab, `tab.rs`).

pub(crate) mod cookies_storage;
pub(crate) mod file;
pub(crate) mod tab;
