//! `solve`: a challenge the view shows, solved by a solver plugin
//! (`solver.rs`): its token put where the widget expects it, its tiles
//! clicked with trusted input, an image captcha's text typed into its
//! field, or a bot wall's cookies set for the page's site and the page
//! loaded again; then the widget read again: solved only when the page
//! says so.

use std::time::Instant;

use base64::Engine;
use rove_page::{Challenge, Mode, Ref, ViewOptions};
use serde_json::Value;

use super::solver::{self, ImageRequest, SolverAnswer, SolverCookie, SolverRequest};
use crate::answer::happened::Happened;
use crate::answer::outcome::Outcome;
use crate::answer::solver_error::SolverError;
use crate::session::Session;
use crate::{CommandError, ScreenshotArgs, SolveArgs};

/// Puts a token where each vendor's widget reads it (its response fields,
/// hCaptcha's frame attribute) and calls the callback the page named in
/// `data-callback`. It runs in the page's main world on purpose: the
/// callback is the page's own function, which rove's isolated world cannot
/// see. The page's callback may throw; that is reported, not raised.
const INJECT: &str = r#"function(token) {
  const HOLDERS = '.g-recaptcha, .grecaptcha-badge, .h-captcha, .cf-turnstile, #FunCaptcha, [data-pkey]';
  const FIELDS = '[name="g-recaptcha-response"], [name="h-captcha-response"], [name="cf-turnstile-response"], [name="fc-token"], #FunCaptcha-Token';
  const holder = this.closest(HOLDERS) || this;
  let fields = [...holder.querySelectorAll(FIELDS)];
  if (!fields.length) fields = [...document.querySelectorAll(FIELDS)];
  for (const f of fields) {
    f.value = token;
    f.dispatchEvent(new Event('input', {bubbles: true}));
    f.dispatchEvent(new Event('change', {bubbles: true}));
  }
  for (const frame of holder.querySelectorAll('iframe[data-hcaptcha-response]')) frame.setAttribute('data-hcaptcha-response', token);
  const name = holder.getAttribute('data-callback');
  let threw = null;
  if (name) {
    const fn = name.split('.').reduce((o, k) => (o == null ? o : o[k]), window);
    if (typeof fn === 'function') {
      try { fn(token); } catch (e) { threw = String(e); }
    }
  }
  return {fields: fields.length, callback: name, threw};
}"#;

/// Kinds a plugin says it does not do: the next plugin is asked.
const UNSUPPORTED: &str = "UNSUPPORTED_KIND";

/// The longest text answer typed into an image captcha's field: its
/// answers are a few characters, and a plugin's text goes into the page
/// and the model's context.
const TEXT_MAX: usize = 100;

/// The most cookies one clearance sets (Cloudflare's is one): more would
/// push the site's own cookies out of the store.
const COOKIES_MAX: usize = 10;

impl Session {
    pub(crate) async fn solve(
        &mut self,
        args: &SolveArgs,
        out: &mut Outcome,
    ) -> Result<(), CommandError> {
        let asked = match &args.target {
            Some(target) => Some(target.reference()?),
            None => None,
        };
        let (challenge, url) = self.challenge(asked).await?;
        if challenge.state == "solved" {
            out.happened.push(Happened::Solved {
                target: challenge.reference,
                kind: challenge.kind,
                plugin: String::new(),
                how: String::new(),
                millis: 0,
            });
            return Ok(());
        }
        let folder = solver::plugins_folder(self.config().plugins.as_deref());
        let plugins = solver::plugins_in(&folder);
        if plugins.is_empty() {
            return Err(SolverError::NoSolver {
                folder: folder.display().to_string(),
            }
            .into());
        }
        let request = self.solver_request(&challenge, &url).await?;
        let started = Instant::now();
        let deadline = self.config().solver_timeout;
        let mut failure = None;
        let mut answered = None;
        for plugin in &plugins {
            match solver::ask(plugin, &request, deadline).await {
                Ok(answer) => {
                    answered = Some((solver::plugin_name(plugin), answer));
                    break;
                }
                Err(SolverError::Plugin { code, .. }) if code.as_str() == UNSUPPORTED => {
                    failure = Some(SolverError::Plugin {
                        plugin: solver::plugin_name(plugin),
                        code,
                        message: format!("no plugin solves {} challenges", challenge.kind),
                        hint: "install a solver plugin that does this kind (docs/captcha.md), or ask a person to solve it".into(),
                        retry: rove_errors::Retry::Never,
                    });
                }
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        let Some((plugin, answer)) = answered else {
            return Err(failure
                .unwrap_or(SolverError::NoSolver {
                    folder: folder.display().to_string(),
                })
                .into());
        };
        let (how, cleared) = self.apply(&challenge, &plugin, answer, &url).await?;
        let state = match cleared {
            Some(state) => state,
            None => self.watch_solved(challenge.reference).await?,
        };
        // An image captcha's answer is checked by the page only when its
        // form is sent: typed into the field is as far as `solve` can see,
        // and it says no more than that.
        if challenge.kind == "image" && state == "answered" {
            out.happened.push(Happened::Answered {
                target: challenge.reference,
                kind: challenge.kind,
                plugin,
                how,
            });
            return Ok(());
        }
        if state != "solved" {
            return Err(SolverError::NotSolved {
                plugin,
                reference: challenge.reference,
                state,
            }
            .into());
        }
        out.happened.push(Happened::Solved {
            target: challenge.reference,
            kind: challenge.kind,
            plugin,
            how,
            millis: started.elapsed().as_millis() as u64,
        });
        Ok(())
    }

    /// The challenges a fresh view shows, and the page's URL.
    async fn challenges_now(&mut self) -> Result<(Vec<Challenge>, String), CommandError> {
        let model = self.model()?;
        let view = model.view(&ViewOptions::mode(Mode::Full)).await?;
        // A view for rove alone: the caller's next one is not a repeat.
        model.name_url_next();
        Ok((view.challenges, view.url))
    }

    /// The challenge `asked` names, or the only one that blocks the page,
    /// and the page's URL.
    async fn challenge(&mut self, asked: Option<Ref>) -> Result<(Challenge, String), CommandError> {
        let (all, url) = self.challenges_now().await?;
        let listed = || {
            let refs: Vec<String> = all
                .iter()
                .map(|c| format!("{} ({}, {})", c.reference, c.kind, c.state))
                .collect();
            if refs.is_empty() {
                "the page shows none".to_owned()
            } else {
                format!("the page's challenges: {}", refs.join(", "))
            }
        };
        if let Some(r) = asked {
            return match all.iter().find(|c| c.reference == r) {
                Some(c) => Ok((c.clone(), url)),
                None => Err(CommandError::Rejected(format!(
                    "{r} is not a challenge; {}",
                    listed()
                ))),
            };
        }
        let blocking: Vec<&Challenge> = all.iter().filter(|c| c.blocks()).collect();
        match blocking.as_slice() {
            [one] => Ok(((*one).clone(), url)),
            [] => Err(CommandError::Rejected(format!(
                "no challenge to solve: {}",
                listed()
            ))),
            _ => Err(CommandError::Rejected(format!(
                "several challenges; name one with solve(ref=eN): {}",
                listed()
            ))),
        }
    }

    /// What the plugin is sent: nothing of the session's but the page's
    /// address (its credentials hidden), the user agent the page sees and,
    /// for an image challenge, a picture of it taken as `screenshot` takes
    /// one (secrets painted out).
    async fn solver_request(
        &mut self,
        challenge: &Challenge,
        url: &str,
    ) -> Result<SolverRequest, CommandError> {
        let image = match &challenge.image {
            None if challenge.kind == "image" => {
                let png = self.picture_of(challenge.reference).await?;
                Some(ImageRequest {
                    instructions: "type the text the image shows".to_owned(),
                    rows: None,
                    cols: None,
                    png,
                })
            }
            Some(open) => {
                let png = self.picture_of(open.frame).await?;
                Some(ImageRequest {
                    instructions: open.instructions.clone(),
                    rows: Some(open.grid.0),
                    cols: Some(open.grid.1),
                    png,
                })
            }
            None => None,
        };
        let user_agent = self
            .focused()?
            .evaluate_in_rove_world("navigator.userAgent")
            .await
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned));
        Ok(SolverRequest {
            protocol: solver::PROTOCOL,
            kind: challenge.kind.clone(),
            site_key: challenge.site_key.clone(),
            page_url: rove_base::redact::hide_url_credentials(url),
            state: challenge.state.clone(),
            user_agent,
            image,
        })
    }

    /// A picture of the element `target` names, as `screenshot` takes one
    /// (secrets painted out), in base64.
    async fn picture_of(&mut self, target: Ref) -> Result<String, CommandError> {
        let mut shot = Outcome::new(self.focused()?.id());
        let args = ScreenshotArgs {
            target: Some(rove_page::Target::Ref(target)),
            ..ScreenshotArgs::default()
        };
        self.screenshot(&args, &mut shot).await?;
        Ok(shot
            .image
            .map(|i| base64::engine::general_purpose::STANDARD.encode(i.bytes))
            .unwrap_or_default())
    }

    /// Does what the answer says; returns what was done, in words, and,
    /// when the page was loaded again (cookies), the challenge's state on
    /// the new page.
    async fn apply(
        &mut self,
        challenge: &Challenge,
        plugin: &str,
        answer: SolverAnswer,
        url: &str,
    ) -> Result<(String, Option<String>), CommandError> {
        let garbage = |what: String| SolverError::Garbage {
            plugin: plugin.to_owned(),
            what,
        };
        match answer {
            SolverAnswer::Token(token) => {
                let element = self.model()?.element(challenge.reference).await?;
                let described = element
                    .session
                    .send(&rove_cdp::protocol::dom::DescribeNode::of(
                        &element.object_id,
                    ))
                    .await?;
                let page_world = element
                    .session
                    .send(&rove_cdp::protocol::dom::ResolveNode {
                        backend_node_id: Some(described.node.backend_node_id),
                        ..Default::default()
                    })
                    .await?;
                let object = page_world.object.object_id.unwrap_or_default();
                let call = rove_cdp::protocol::runtime::CallFunctionOn::on(
                    "the widget's token",
                    INJECT,
                    object.as_str(),
                )
                .value(token)
                .by_value();
                let done: Value = element.session.run_checked_value(&call, None).await?;
                let fields = done["fields"].as_u64().unwrap_or(0);
                let mut how = format!(
                    "put its token in {fields} response field{}",
                    if fields == 1 { "" } else { "s" }
                );
                if let Some(name) = done["callback"].as_str() {
                    how.push_str(&format!(" and called the page's {name}()"));
                }
                if let Some(threw) = done["threw"].as_str() {
                    how.push_str(&format!(
                        ", which threw {}",
                        crate::answer::quote_line(threw)
                    ));
                }
                Ok((how, None))
            }
            SolverAnswer::Cells(mut cells) => {
                // Each tile once: a second click would take it back.
                let mut seen = std::collections::HashSet::new();
                cells.retain(|c| seen.insert(*c));
                let Some(open) = &challenge.image else {
                    return Err(garbage(format!(
                        "answered with tiles, but {} shows no image challenge",
                        challenge.reference
                    ))
                    .into());
                };
                let count = open.tiles.len();
                let mut chosen = Vec::with_capacity(cells.len());
                for cell in &cells {
                    match (*cell as usize)
                        .checked_sub(1)
                        .and_then(|i| open.tiles.get(i))
                    {
                        Some(tile) => chosen.push(*tile),
                        None => {
                            return Err(garbage(format!(
                                "answered tile {cell}, but the challenge has tiles 1 to {count}"
                            ))
                            .into());
                        }
                    }
                }
                let opts = rove_input::ClickOptions {
                    timeout: self.config().action_timeout,
                    ..rove_input::ClickOptions::default()
                };
                for tile in &chosen {
                    rove_input::click(self.model()?, *tile, &opts).await?;
                }
                if let Some(verify) = open.verify {
                    rove_input::click(self.model()?, verify, &opts).await?;
                }
                let listed: Vec<String> = cells.iter().map(u32::to_string).collect();
                let how = format!(
                    "clicked tile{} {} of {count}{}",
                    if cells.len() == 1 { "" } else { "s" },
                    listed.join(", "),
                    if open.verify.is_some() {
                        " and verify"
                    } else {
                        ""
                    }
                );
                Ok((how, None))
            }
            SolverAnswer::Text(text) => {
                let Some(field) = challenge.field else {
                    return Err(garbage(format!(
                        "answered with text, which {} ({}) does not take",
                        challenge.reference, challenge.kind
                    ))
                    .into());
                };
                let chars = text.chars().count();
                if chars > TEXT_MAX || text.chars().any(char::is_control) {
                    return Err(garbage(format!(
                        "answered with {chars} characters{}, but a captcha's text is one line of at most {TEXT_MAX}",
                        if text.chars().any(char::is_control) {
                            " holding control characters"
                        } else {
                            ""
                        }
                    ))
                    .into());
                }
                rove_input::fill(self.model()?, field, &text).await?;
                Ok((format!("typed its answer into {field}"), None))
            }
            SolverAnswer::Cookies(cookies) => {
                if cookies.len() > COOKIES_MAX {
                    return Err(garbage(format!(
                        "answered with {} cookies; a clearance takes at most {COOKIES_MAX}",
                        cookies.len()
                    ))
                    .into());
                }
                if challenge.kind != "cloudflare-interstitial" {
                    return Err(garbage(format!(
                        "answered with cookies, which {} ({}) does not take",
                        challenge.reference, challenge.kind
                    ))
                    .into());
                }
                let state = self.clear_with_cookies(plugin, &cookies, url).await?;
                let names: Vec<String> = cookies
                    .iter()
                    .map(|c| crate::answer::quote_line(&c.name))
                    .collect();
                let how = format!(
                    "set the cookie{} {} and loaded the page again",
                    if cookies.len() == 1 { "" } else { "s" },
                    names.join(", ")
                );
                Ok((how, Some(state)))
            }
        }
    }

    /// Sets a plugin's cookies for the page's own site (a cookie for any
    /// other is refused before one is set), then loads the page again; the
    /// interstitial's state on the new page, `solved` when it is gone.
    async fn clear_with_cookies(
        &mut self,
        plugin: &str,
        cookies: &[SolverCookie],
        url: &str,
    ) -> Result<String, CommandError> {
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host().map(|h| h.to_string().to_ascii_lowercase()))
            .unwrap_or_default();
        let is_ip = host.starts_with('[') || host.parse::<std::net::IpAddr>().is_ok();
        let mut params = Vec::with_capacity(cookies.len());
        for cookie in cookies {
            let mut param = serde_json::json!({
                "name": cookie.name,
                "value": cookie.value,
                "path": cookie.path.clone().unwrap_or_else(|| "/".to_owned()),
                // The page's address always: Chromium then checks the
                // domain against it (and refuses a public suffix).
                "url": url,
            });
            if let Some(domain) = &cookie.domain {
                let domain = domain.trim_start_matches('.').to_ascii_lowercase();
                let above = !is_ip && domain.contains('.') && host.ends_with(&format!(".{domain}"));
                if domain != host && !above {
                    return Err(SolverError::Garbage {
                        plugin: plugin.to_owned(),
                        what: format!(
                            "answered with a cookie for {}, which is not the page's site {host}",
                            crate::answer::quote_line(&domain)
                        ),
                    }
                    .into());
                }
                // A domain above the host with its leading dot: without it
                // Chromium sets a cookie for that one host alone.
                if above {
                    param["domain"] = format!(".{domain}").into();
                }
            }
            params.push(param);
        }
        self.put_cookies(params).await?;
        let mut again = Outcome::new(self.focused()?.id());
        match self.reload(&mut again).await {
            // A wall comes with an error status (Cloudflare's 403): still
            // there or not is for the page read below to say.
            Ok(())
            | Err(CommandError::Navigation {
                failure: crate::NavigationFailure::HttpStatus(_),
                ..
            }) => {}
            Err(e) => return Err(e),
        }
        let (now, _) = self.challenges_now().await?;
        Ok(now
            .iter()
            .find(|c| c.kind == "cloudflare-interstitial")
            .map(|c| c.state.clone())
            .unwrap_or_else(|| "solved".to_owned()))
    }

    /// The widget's state once the page says solved, or as it stands when
    /// [`rove_base::limits::SOLVED_WATCH`] passed.
    async fn watch_solved(&mut self, widget: Ref) -> Result<String, CommandError> {
        let until = Instant::now() + rove_base::limits::SOLVED_WATCH;
        loop {
            let state = self
                .challenges_now()
                .await?
                .0
                .into_iter()
                .find(|c| c.reference == widget)
                .map(|c| c.state)
                .unwrap_or_else(|| "gone".to_owned());
            // An image captcha's field holding the answer is as far as the
            // page shows before its form is sent.
            if state == "solved" || state == "answered" || Instant::now() >= until {
                return Ok(state);
            }
            tokio::time::sleep(rove_base::limits::WAIT_POLL.first).await;
        }
    }
}
