//! A tab's interception: what its sessions pause for (the domain policy's
//! documents, the block and mock rules' URLs) and the answer each paused
//! request gets. Part of the tab watch (`watch.rs`).

use rove_cdp::Event;
use rove_cdp::protocol::fetch;
use rove_cdp::protocol::network::ResourceType;

use super::TabWatch;
use crate::BrowserError;

impl TabWatch {
    /// What the tab's sessions pause for: documents when the domain policy
    /// limits hosts, and the URLs of the block and mock rules. `None` when
    /// nothing is intercepted.
    pub(super) fn fetch_patterns(&self) -> Option<fetch::Enable> {
        let mut patterns = Vec::new();
        if crate::policy::current(&self.policy).needs_interception() {
            patterns.extend(
                crate::policy::interception_patterns()
                    .patterns
                    .unwrap_or_default(),
            );
        }
        for rule in crate::network::current_rules(&self.rules).0 {
            let glob = rove_base::url_pattern::UrlPattern::new(&rule.pattern).interception_glob();
            patterns.push(fetch::RequestPattern {
                url_pattern: Some(glob),
                request_stage: Some(fetch::RequestStage::Request),
                ..fetch::RequestPattern::default()
            });
        }
        (!patterns.is_empty()).then(|| fetch::Enable {
            patterns: Some(patterns),
            ..fetch::Enable::default()
        })
    }

    /// Applies the session's current rules to this tab's sessions (the
    /// tab's and its iframes').
    pub(crate) async fn refresh_interception(&self) -> Result<(), BrowserError> {
        let Some(conn) = self.conn.upgrade() else {
            return Ok(());
        };
        let mut sessions = vec![conn.session(self.session.clone())];
        sessions.extend(self.frame_sessions().into_iter().map(|f| f.session));
        let patterns = self.fetch_patterns();
        for session in sessions {
            match &patterns {
                Some(p) => session.send(p).await?,
                None => session.send(&fetch::Disable {}).await?,
            };
        }
        Ok(())
    }

    /// Answers a paused request: a document the domain policy refuses is
    /// failed; one a block or mock rule matches is failed or answered; any
    /// other goes on.
    pub(super) fn answer_paused(&self, event: &Event) {
        let (Some(conn), Some(id)) = (self.conn.upgrade(), &event.session_id) else {
            return;
        };
        let session = conn.session(id.clone());
        let policy = crate::policy::current(&self.policy);
        let paused: fetch::RequestPaused = event.parse().unwrap_or_default();
        let url = paused.request.url.as_str();
        let document = paused.resource_type == ResourceType::Document;
        let refused = document && policy.needs_interception() && !policy.allows(url);
        let rules = crate::network::current_rules(&self.rules);
        if let (false, Some(rule)) = (refused, rules.matching(url)) {
            crate::network::answer_by_rule(session, paused.request_id, rule.action.clone());
            return;
        }
        if let Some(url) =
            crate::policy::answer_paused(session, event, &policy, crate::policy::FailAs::Aborted)
        {
            self.lock().blocked.push(url);
            self.bump();
        }
    }
}
