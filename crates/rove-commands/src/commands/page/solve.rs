//! `solve`: a challenge the view shows, solved by a solver plugin
//! (`solver.rs`): its token put where the widget expects it, or its tiles
//! clicked with trusted input, and then the widget read again: solved only
//! when the page says so.

use std::time::Instant;

use base64::Engine;
use rove_page::{Challenge, Mode, Ref, ViewOptions};
use serde_json::Value;

use super::solver::{self, ImageRequest, SolverAnswer, SolverRequest};
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
        let how = self.apply(&challenge, &plugin, answer).await?;
        let state = self.watch_solved(challenge.reference).await?;
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
        let view = self.model()?.view(&ViewOptions::mode(Mode::Full)).await?;
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
    /// address (its credentials hidden) and, for an image challenge, a
    /// picture of it taken as `screenshot` takes one (secrets painted out).
    async fn solver_request(
        &mut self,
        challenge: &Challenge,
        url: &str,
    ) -> Result<SolverRequest, CommandError> {
        let image = match &challenge.image {
            Some(open) => {
                let mut shot = Outcome::new(self.focused()?.id());
                let args = ScreenshotArgs {
                    target: Some(rove_page::Target::Ref(open.frame)),
                    ..ScreenshotArgs::default()
                };
                self.screenshot(&args, &mut shot).await?;
                let png = shot
                    .image
                    .map(|i| base64::engine::general_purpose::STANDARD.encode(i.bytes))
                    .unwrap_or_default();
                Some(ImageRequest {
                    instructions: open.instructions.clone(),
                    rows: open.grid.0,
                    cols: open.grid.1,
                    png,
                })
            }
            None => None,
        };
        Ok(SolverRequest {
            protocol: solver::PROTOCOL,
            kind: challenge.kind.clone(),
            site_key: challenge.site_key.clone(),
            page_url: rove_base::redact::hide_url_credentials(url),
            state: challenge.state.clone(),
            image,
        })
    }

    /// Does what the answer says; returns what was done, in words.
    async fn apply(
        &mut self,
        challenge: &Challenge,
        plugin: &str,
        answer: SolverAnswer,
    ) -> Result<String, CommandError> {
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
                Ok(how)
            }
            SolverAnswer::Cells(cells) => {
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
                Ok(format!(
                    "clicked tile{} {} of {count}{}",
                    if cells.len() == 1 { "" } else { "s" },
                    listed.join(", "),
                    if open.verify.is_some() {
                        " and verify"
                    } else {
                        ""
                    }
                ))
            }
            SolverAnswer::Text(_) => Err(garbage(format!(
                "answered with text, which {} ({}) does not take",
                challenge.reference, challenge.kind
            ))
            .into()),
        }
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
            if state == "solved" || Instant::now() >= until {
                return Ok(state);
            }
            tokio::time::sleep(rove_base::limits::WAIT_POLL.first).await;
        }
    }
}
