//! Challenge widgets offline: pages that reproduce the markup and the
//! behaviour of reCAPTCHA (checkbox, image challenge, v3 badge), hCaptcha,
//! Turnstile, Cloudflare's interstitial, Arkose and a plain image captcha,
//! with each vendor's frame served at the vendor's own path on
//! 127.0.0.1 (rove knows a widget's frame by its path, so the host does not
//! matter), and a page that only looks like a challenge.

use rove_localserver::{Response, Routes};

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/challenges/",
            $name
        ))
    };
}

/// The reCAPTCHA checkbox page: its token expires after `expire_ms` (0:
/// never), and with `image` the checkbox opens the image challenge.
fn recaptcha(expire_ms: u64, image: bool) -> Response {
    Response::html(
        fixture!("recaptcha.html")
            .replace("EXPIRE", &expire_ms.to_string())
            .replace("CHALLENGE", if image { "1" } else { "0" }),
    )
}

/// hCaptcha's checkbox page, with its image challenge's frame at the
/// body's end (hidden until the checkbox asks for it) when `image`.
fn hcaptcha(image: bool) -> Response {
    let challenge = "<div style=\"visibility: hidden; position: absolute; top: 10px; left: 10px;\"><iframe title=\"Main content of the hCaptcha challenge\" width=\"330\" height=\"420\" frameborder=\"0\" src=\"/captcha/v1/4fe0c2f/static/hcaptcha.html#frame=challenge&amp;id=0w1&amp;host=127.0.0.1&amp;sitekey=10000000-ffff-ffff-ffff-000000000001\"></iframe></div>";
    Response::html(
        fixture!("hcaptcha.html").replace("<!--CHALLENGE-->", if image { challenge } else { "" }),
    )
}

/// Cloudflare's interstitial in front of `/guarded` (with the 403 it comes
/// with), until a request carries the clearance cookie a solver hands out:
/// `cf_clearance=cleared-by-plugin`.
fn guarded(request: &rove_localserver::Request) -> Response {
    let cleared = request.header("cookie").is_some_and(|c| {
        c.split(';')
            .any(|pair| pair.trim() == format!("cf_clearance={CLEARANCE}"))
    });
    if cleared {
        Response::html(fixture!("interstitial-guarded.html"))
    } else {
        Response::with_type(
            403,
            "text/html; charset=utf-8",
            fixture!("interstitial.html").as_bytes().to_vec(),
        )
    }
}

/// The clearance cookie's value `/guarded` lets through.
pub const CLEARANCE: &str = "cleared-by-plugin";

/// The reCAPTCHA checkbox page where a person checks the box once the
/// test says so: the page asks `/person` four times a second and checks the
/// box when it answers `go` (a test serves `/person`; without it, no one
/// ever comes).
fn recaptcha_by_hand() -> Response {
    let person = "<script>const ask = setInterval(async () => { const said = await fetch('/person').then((r) => r.text()).catch(() => ''); if (said !== 'go') return; clearInterval(ask); document.querySelector('iframe[src*=\"/recaptcha/api2/anchor\"]').contentWindow.solvedWith('by-hand-' + Date.now()); }, 250);</script></body>";
    Response::html(
        fixture!("recaptcha.html")
            .replace("EXPIRE", "0")
            .replace("CHALLENGE", "0")
            .replace("</body>", person),
    )
}

fn svg(body: &str) -> Response {
    Response::with_type(200, "image/svg+xml", body.as_bytes().to_vec())
}

fn script() -> Response {
    Response::with_type(
        200,
        "text/javascript",
        b"/* the vendor's script */".to_vec(),
    )
}

/// `routes` with every challenge page and every vendor frame. Pages:
/// `/recaptcha.html`, `/recaptcha-expiring.html` (the token expires after
/// 1.5 s), `/recaptcha-image.html`, `/recaptcha-v3.html`, `/hcaptcha.html`,
/// `/hcaptcha-image.html` (its checkbox opens the image challenge),
/// `/turnstile.html`, `/interstitial.html`, `/guarded` (the interstitial
/// until the clearance cookie [`CLEARANCE`] comes), `/arkose.html`,
/// `/image-captcha.html`, `/two-challenges.html` (reCAPTCHA and hCaptcha on
/// one page), `/recaptcha-by-hand.html` (a person checks the box when the
/// test's `/person` says `go`) and `/verify-human.html` (no challenge at all).
pub fn challenge_routes(routes: Routes) -> Routes {
    let two = fixture!("recaptcha.html")
        .replace("EXPIRE", "0")
        .replace("CHALLENGE", "0")
        .replace(
            "<button type=\"submit\">",
            &format!(
                "{}<button type=\"submit\">",
                fixture!("hcaptcha.html")
                    .split_once("<form onsubmit=\"return false\">")
                    .and_then(|(_, rest)| rest.split_once("<button>"))
                    .map(|(widget, _)| widget.replace("data-callback=\"onHuman\"", ""))
                    .unwrap_or_default()
            ),
        );
    routes
        .page("/recaptcha.html", recaptcha(0, false))
        .page("/recaptcha-expiring.html", recaptcha(1_500, false))
        .page("/recaptcha-image.html", recaptcha(0, true))
        .page("/two-challenges.html", Response::html(two))
        .page("/recaptcha-v3.html", Response::html(fixture!("recaptcha-v3.html")))
        .page("/hcaptcha.html", hcaptcha(false))
        .page("/hcaptcha-image.html", hcaptcha(true))
        .page("/recaptcha-by-hand.html", recaptcha_by_hand())
        .handle("/guarded", guarded)
        .page("/turnstile.html", Response::html(fixture!("turnstile.html")))
        .page("/interstitial.html", Response::html(fixture!("interstitial.html")))
        .page("/arkose.html", Response::html(fixture!("arkose.html")))
        .page("/image-captcha.html", Response::html(fixture!("image-captcha.html")))
        .page("/verify-human.html", Response::html(fixture!("verify-human.html")))
        .page("/recaptcha/api2/anchor", Response::html(fixture!("anchor.html")))
        .page("/recaptcha/api2/bframe", Response::html(fixture!("bframe.html")))
        .page("/recaptcha/api.js", script())
        .page(
            "/captcha/v1/4fe0c2f/static/hcaptcha.html",
            Response::html(fixture!("hcaptcha-frame.html")),
        )
        .page(
            "/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv0/0/a1b2c/1x00000000000000000000AA/light/fbE/normal/auto/",
            Response::html(fixture!("turnstile-frame.html")),
        )
        .page("/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1", script())
        .page("/fc/gc/", Response::html(fixture!("arkose-frame.html")))
        .page("/captcha.svg", svg(fixture!("captcha.svg")))
        .page("/shield.svg", svg(fixture!("shield.svg")))
}
