//! A browser context owned by one rove session: its tabs and its focus.
//!
//! Tabs get short ids (`t1`, `t2` …) that are never reused within the context,
//! so an agent holding an old id gets `NO_TAB`, never another tab. Tabs the page
//! opens itself (popups, `target=_blank`) join the list when it is next read.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rove_cdp::protocol::target::{
    ActivateTarget, CloseTarget, CreateBrowserContext, CreateTarget, DisposeBrowserContext,
    GetBrowserContexts,
};

use crate::emulation::{SharedEmulation, Viewport};
use crate::tab::{Tab, TabId};
use crate::{Browser, BrowserError, Counter};

/// An isolated context: cookies, storage, cache, tabs and focus of its own.
/// Cheap to clone.
#[derive(Debug, Clone)]
pub struct BrowserContext {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    browser: Browser,
    id: String,
    table: Mutex<TabTable>,
    policy: crate::policy::SharedPolicy,
    rules: crate::network::SharedRules,
    /// The browser's default context on a profile of the user's: closing
    /// the session closes its tabs and keeps what it stored.
    persistent: bool,
    emulation: SharedEmulation,
}

#[derive(Debug, Default)]
struct TabTable {
    /// Tab numbers, shared with any context that replaces this one after a
    /// browser restart.
    numbers: Counter,
    tabs: Vec<Tab>,
    focus: Option<TabId>,
    /// Targets rove closed: the registry may still list them for a moment,
    /// and they must not come back under a new id.
    closed: std::collections::HashSet<String>,
}

/// A tab as listed by [`BrowserContext::tabs`].
#[derive(Debug, Clone, PartialEq)]
pub struct TabInfo {
    /// rove's id for the tab.
    pub id: TabId,
    /// The current URL.
    pub url: String,
    /// The document title.
    pub title: String,
    /// Whether this tab has the session's focus.
    pub focused: bool,
    /// Whether its renderer crashed.
    pub crashed: bool,
    /// The tab that opened it, if the page did.
    pub opener: Option<TabId>,
}

// A context is made by its browser, here beside what it is, so that the
// browser knows nothing of contexts but their ids.
impl Browser {
    /// Creates an isolated browser context: its own cookies, storage, cache,
    /// tabs and focus. Each rove session owns one, so parallel agents never see
    /// or steal each other's tabs.
    pub async fn new_context(&self) -> Result<BrowserContext, BrowserError> {
        self.new_context_counting(Counter::new()).await
    }

    /// A new context whose tab ids come from `tabs` (shared with the context
    /// of a browser that died, so ids are never reused in a session).
    pub async fn new_context_counting(
        &self,
        tabs: Counter,
    ) -> Result<BrowserContext, BrowserError> {
        let conn = self.connection().await?;
        if self.on_user_profile() {
            // What the sessions store must stay in the profile: only the
            // default context writes there.
            let contexts = conn.browser().send(&GetBrowserContexts {}).await?;
            if let Some(id) = contexts.default_browser_context_id {
                return Ok(BrowserContext::persistent(self.clone(), id, tabs));
            }
        }
        let created = conn
            .browser()
            .send(&CreateBrowserContext {
                // A remote browser keeps the context through a reconnect; rove
                // disposes it explicitly on close.
                dispose_on_detach: Some(false),
                ..Default::default()
            })
            .await?;
        self.remember_context(created.browser_context_id.clone());
        Ok(BrowserContext::new(
            self.clone(),
            created.browser_context_id,
            tabs,
        ))
    }
}

impl BrowserContext {
    fn new(browser: Browser, id: String, numbers: Counter) -> Self {
        BrowserContext {
            inner: Arc::new(Inner {
                browser,
                id,
                table: Mutex::new(TabTable {
                    numbers,
                    ..TabTable::default()
                }),
                policy: Arc::default(),
                rules: Arc::default(),
                emulation: Arc::default(),
                persistent: false,
            }),
        }
    }

    /// The browser's default context (on a profile of the user's), which
    /// outlives the session.
    fn persistent(browser: Browser, id: String, numbers: Counter) -> Self {
        let mut context = BrowserContext::new(browser, id, numbers);
        if let Some(inner) = Arc::get_mut(&mut context.inner) {
            inner.persistent = true;
        }
        context
    }

    fn table(&self) -> MutexGuard<'_, TabTable> {
        self.inner.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// CDP's id of this context.
    pub fn id(&self) -> &str {
        &self.inner.id
    }

    /// Limits where the context's documents may load from (navigations,
    /// redirects, iframes, popups): a request outside is failed in the
    /// browser as blocked by the client, and a popup is held until its
    /// requests are guarded. Set it before the tabs are used: a tab's watch
    /// starts the interception when it starts.
    pub async fn set_domain_policy(&self, policy: crate::DomainPolicy) -> Result<(), BrowserError> {
        *self.inner.policy.lock().unwrap_or_else(|p| p.into_inner()) = policy;
        self.inner
            .browser
            .shared
            .popups
            .set(&self.inner.id, &self.inner.policy);
        self.inner.browser.guard_popups().await
    }

    /// Gives the context's tabs (those open and those to come) a viewport of
    /// `size` (`None`: the browser's own).
    pub async fn set_viewport(&self, size: Option<Viewport>) -> Result<(), BrowserError> {
        self.inner
            .emulation
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .viewport = size;
        let tabs: Vec<Tab> = self.table().tabs.clone();
        for tab in tabs {
            tab.apply_viewport().await?;
        }
        Ok(())
    }

    /// Makes one emulation setting (the CDP calls under `key`, replacing
    /// what `key` held) on the context's tabs, those open and those to come.
    /// When a tab refuses it, the setting is undone in the context and the
    /// browser's error returned.
    pub async fn set_emulation(
        &self,
        key: &str,
        calls: Vec<crate::EmulationCall>,
    ) -> Result<(), BrowserError> {
        let before = self
            .inner
            .emulation
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .settings
            .insert(key.to_owned(), calls);
        let tabs: Vec<Tab> = self.table().tabs.clone();
        for tab in tabs {
            if let Err(e) = tab.apply_viewport().await {
                let mut emulation = self
                    .inner
                    .emulation
                    .lock()
                    .unwrap_or_else(|p| p.into_inner());
                match before {
                    Some(calls) => emulation.settings.insert(key.to_owned(), calls),
                    None => emulation.settings.remove(key),
                };
                return Err(e);
            }
        }
        // Popups to come get it before their first script (`popups.rs`).
        let popups = &self.inner.browser.shared.popups;
        popups.set_emulated(&self.inner.id, &self.inner.emulation);
        self.inner.browser.guard_popups().await
    }

    /// Every emulation setting made, by key (in the order they apply), so a
    /// context that replaces this one can be given the same.
    pub fn emulation_settings(&self) -> Vec<(String, Vec<crate::EmulationCall>)> {
        self.inner
            .emulation
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .settings
            .iter()
            .map(|(key, calls)| (key.clone(), calls.clone()))
            .collect()
    }

    /// The calls an emulation setting holds, if it was made.
    pub fn emulation(&self, key: &str) -> Option<Vec<crate::EmulationCall>> {
        self.inner
            .emulation
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .settings
            .get(key)
            .cloned()
    }

    /// Replaces the session's block and mock rules, on the tabs open and
    /// those to come (see `network.rs`).
    pub async fn set_request_rules(
        &self,
        rules: crate::network::RequestRules,
    ) -> Result<(), BrowserError> {
        *self.inner.rules.lock().unwrap_or_else(|p| p.into_inner()) = rules;
        let tabs: Vec<Tab> = self.table().tabs.clone();
        for tab in tabs {
            tab.refresh_interception().await?;
        }
        Ok(())
    }

    /// The session's block and mock rules.
    pub fn request_rules(&self) -> crate::network::RequestRules {
        crate::network::current_rules(&self.inner.rules)
    }

    /// The context's domain policy.
    pub fn domain_policy(&self) -> crate::DomainPolicy {
        crate::policy::current(&self.inner.policy)
    }

    /// The browser this context lives in.
    pub fn browser(&self) -> &Browser {
        &self.inner.browser
    }

    /// The session's first tab, focused. On a profile of the user's the
    /// browser's own start page (a blank tab no session holds) becomes it:
    /// a new one beside it left a stray `about:blank` in every listing.
    pub async fn first_tab(&self) -> Result<Tab, BrowserError> {
        if self.inner.persistent {
            let registry = &self.inner.browser.shared.registry;
            let held: Vec<String> = {
                let table = self.table();
                table
                    .tabs
                    .iter()
                    .map(|t| t.target_id().to_owned())
                    .chain(table.closed.iter().cloned())
                    .collect()
            };
            let blank = registry.pages_in(&self.inner.id).into_iter().find(|p| {
                p.info.url == "about:blank"
                    && p.info.opener_id.is_none()
                    && !held.contains(&p.info.target_id)
            });
            if let Some(page) = blank {
                let tab = self.adopt(page.info.target_id);
                tab.session().await?;
                self.table().focus = Some(tab.id());
                return Ok(tab);
            }
        }
        self.new_tab().await
    }

    /// Opens a blank tab in this context and focuses it.
    pub async fn new_tab(&self) -> Result<Tab, BrowserError> {
        let conn = self.inner.browser.connection().await?;
        let created = conn
            .browser()
            .send(&CreateTarget {
                url: "about:blank".into(),
                browser_context_id: Some(self.inner.id.clone()),
                background: None,
                ..Default::default()
            })
            .await?;
        let target_id = created.target_id;
        let known = self
            .inner
            .browser
            .targets()
            .wait_until(rove_base::limits::NEW_TAB_KNOWN, |r| {
                r.get(&target_id).is_some()
            })
            .await;
        if !known {
            tracing::debug!(target: "rove_browser", %target_id, "the registry has not seen a new tab yet");
        }
        let tab = self.adopt(target_id);
        // Attach now so the first command does not pay for it and events
        // subscribed right away are not missed.
        tab.session().await?;
        self.table().focus = Some(tab.id());
        Ok(tab)
    }

    /// Gives a target an id and a handle, once.
    fn adopt(&self, target_id: String) -> Tab {
        let mut table = self.table();
        table.closed.remove(&target_id);
        if let Some(tab) = table.tabs.iter().find(|t| t.target_id() == target_id) {
            return tab.clone();
        }
        let tab = Tab::new(
            TabId(table.numbers.next()),
            target_id,
            self.inner.browser.clone(),
            self.inner.policy.clone(),
            self.inner.emulation.clone(),
            self.inner.rules.clone(),
        );
        table.tabs.push(tab.clone());
        tab
    }

    /// Marks a target rove opened for its own work (restoring storage) as
    /// none of the session's tabs: it is never adopted, listed or numbered.
    pub fn hide_target(&self, target_id: &str) {
        self.table().closed.insert(target_id.to_owned());
    }

    /// Brings the table in line with the registry: adopts pages the browser
    /// opened in this context, drops tabs whose targets are known destroyed.
    /// A tab created a moment ago that the registry has not heard of yet stays.
    fn sync(&self) {
        let registry = &self.inner.browser.shared.registry;
        let mut opened: Vec<_> = registry
            .pages_in(&self.inner.id)
            .into_iter()
            .filter(|p| {
                let table = self.table();
                !table.closed.contains(&p.info.target_id)
                    && !table.tabs.iter().any(|t| t.target_id() == p.info.target_id)
            })
            .collect();
        // The registry does not know creation order; openers go first so a
        // popup's id comes after its opener's.
        opened.sort_by_key(|p| p.info.opener_id.is_some());
        for page in opened {
            self.adopt(page.info.target_id);
        }
        let mut table = self.table();
        table.tabs.retain(|t| !registry.is_destroyed(t.target_id()));
        if table
            .focus
            .is_some_and(|f| !table.tabs.iter().any(|t| t.id() == f))
        {
            table.focus = table.tabs.last().map(Tab::id);
        }
    }

    /// The context's tabs, oldest first.
    pub fn tabs(&self) -> Vec<TabInfo> {
        self.sync();
        let registry = &self.inner.browser.shared.registry;
        let table = self.table();
        table
            .tabs
            .iter()
            .map(|tab| {
                let record = registry.get(tab.target_id());
                let opener = record
                    .as_ref()
                    .and_then(|r| r.info.opener_id.as_deref())
                    .and_then(|o| table.tabs.iter().find(|t| t.target_id() == o))
                    .map(Tab::id);
                TabInfo {
                    id: tab.id(),
                    url: record
                        .as_ref()
                        .map(|r| r.info.url.clone())
                        .unwrap_or_default(),
                    // The page wrote it: one line, nothing hidden.
                    title: record
                        .as_ref()
                        .map(|r| rove_base::text::clean(r.info.title.clone()))
                        .unwrap_or_default(),
                    focused: table.focus == Some(tab.id()),
                    crashed: record.as_ref().is_some_and(|r| r.crashed),
                    opener,
                }
            })
            .collect()
    }

    /// The context's tabs with their current titles and URLs (one CDP call).
    pub async fn tabs_refreshed(&self) -> Result<Vec<TabInfo>, BrowserError> {
        let conn = self.inner.browser.connection().await?;
        self.inner.browser.shared.registry.refresh(&conn).await?;
        Ok(self.tabs())
    }

    /// The context's tabs, after waiting up to `timeout` for each of `ids`
    /// to report a URL: a popup's target can be listed before the browser
    /// knows where it goes, and the domain policy must judge the real URL.
    pub async fn tabs_with_urls(&self, ids: &[TabId], timeout: Duration) -> Vec<TabInfo> {
        let targets: Vec<String> = {
            let table = self.table();
            table
                .tabs
                .iter()
                .filter(|t| ids.contains(&t.id()))
                .map(|t| t.target_id().to_owned())
                .collect()
        };
        let known = self
            .inner
            .browser
            .targets()
            .wait_until(timeout, |r| {
                targets
                    .iter()
                    .all(|t| r.get(t).is_none_or(|rec| !rec.info.url.is_empty()))
            })
            .await;
        if !known {
            tracing::debug!(target: "rove_browser", "a new tab has no URL yet");
        }
        self.tabs()
    }

    /// One tab by id.
    pub fn tab(&self, id: TabId) -> Result<Tab, BrowserError> {
        self.sync();
        self.table()
            .tabs
            .iter()
            .find(|t| t.id() == id)
            .cloned()
            .ok_or_else(|| BrowserError::NoTab {
                tab: id.to_string(),
                reason: "it was closed or never existed in this session".into(),
            })
    }

    /// The focused tab, if any.
    pub fn focused(&self) -> Option<Tab> {
        self.sync();
        let table = self.table();
        let focus = table.focus?;
        table.tabs.iter().find(|t| t.id() == focus).cloned()
    }

    /// Moves this session's focus to `id` and makes it the browser's
    /// active tab. Focus is per context: another session's focus is
    /// untouched.
    pub async fn focus(&self, id: TabId) -> Result<Tab, BrowserError> {
        let tab = self.tab(id)?;
        self.activate(&tab).await?;
        self.table().focus = Some(id);
        Ok(tab)
    }

    /// Makes `tab` the one its window shows. A hidden tab gets no frames,
    /// so Chromium held every input event sent to it until its 5 s input
    /// timeout, and timers and animations slowed down.
    async fn activate(&self, tab: &Tab) -> Result<(), BrowserError> {
        let conn = self.inner.browser.connection().await?;
        conn.browser()
            .send(&ActivateTarget {
                target_id: tab.target_id().to_owned(),
            })
            .await?;
        Ok(())
    }

    /// Closes one tab. Focus moves to the newest remaining tab.
    pub async fn close_tab(&self, id: TabId) -> Result<(), BrowserError> {
        let tab = self.tab(id)?;
        let conn = self.inner.browser.connection().await?;
        conn.browser()
            .send(&CloseTarget {
                target_id: tab.target_id().to_owned(),
            })
            .await?;
        let focused = {
            let mut table = self.table();
            table.tabs.retain(|t| t.id() != id);
            table.closed.insert(tab.target_id().to_owned());
            if table.focus != Some(id) {
                return Ok(());
            }
            table.focus = table.tabs.last().map(Tab::id);
            table.tabs.last().cloned()
        };
        // Chromium shows a neighbour of the closed tab, not always the
        // one focus moved to. The tab is closed either way: a failure to
        // show the next one is for the next command to meet.
        if let Some(next) = focused
            && let Err(e) = self.activate(&next).await
        {
            tracing::debug!(target: "rove_browser", error = %e, "the tab focus moved to was not activated");
        }
        Ok(())
    }

    /// Disposes the context: closes its tabs and drops its cookies and storage.
    pub async fn close(&self) -> Result<(), BrowserError> {
        if self.inner.persistent {
            // The profile keeps the cookies and storage; only the tabs go.
            for tab in self.tabs() {
                self.close_tab(tab.id).await?;
            }
            return Ok(());
        }
        let conn = self.inner.browser.connection().await?;
        conn.browser()
            .send(&DisposeBrowserContext {
                browser_context_id: self.inner.id.clone(),
            })
            .await?;
        self.inner.browser.forget_context(&self.inner.id);
        let mut table = self.table();
        table.tabs.clear();
        table.focus = None;
        Ok(())
    }
}
