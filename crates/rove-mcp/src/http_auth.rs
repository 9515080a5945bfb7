//! The bearer token of `rove mcp --http`, and the answers of the MCP
//! authorization spec's shape: a 401 carries `WWW-Authenticate: Bearer`
//! (RFC 6750) with `resource_metadata` pointing at the protected resource
//! metadata (RFC 9728), which is served without a token. rove's token is
//! fixed when the server starts, so that document names no authorization
//! server: the token comes from whoever started rove.

use std::convert::Infallible;

use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{HeaderMap, HeaderValue};
use hyper::{Response, StatusCode};
use serde_json::json;

/// Where the protected resource metadata lives (RFC 9728 §3.1, for the
/// resource `/mcp`).
pub(crate) const METADATA_PATH: &str = "/.well-known/oauth-protected-resource/mcp";
/// The same document at the root, for clients that look there first.
pub(crate) const METADATA_ROOT_PATH: &str = "/.well-known/oauth-protected-resource";

pub(crate) type Body = BoxBody<Bytes, Infallible>;

/// What the request's `Authorization` header says about the token.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Credentials {
    /// No `Authorization: Bearer …` header at all.
    Missing,
    /// A bearer token that is not the server's.
    Wrong,
    /// The server's token.
    Right,
}

/// Checks `Authorization: Bearer <token>`. The scheme is case-insensitive
/// (RFC 7235 §2.1) and may be followed by more than one space; the token is
/// compared in constant time.
pub(crate) fn credentials(headers: &HeaderMap, token: &str) -> Credentials {
    let Some(value) = headers
        .get(hyper::header::AUTHORIZATION)
        .map(HeaderValue::as_bytes)
    else {
        return Credentials::Missing;
    };
    let Some(space) = value.iter().position(|b| *b == b' ') else {
        return Credentials::Missing;
    };
    let (scheme, rest) = value.split_at(space);
    if !scheme.eq_ignore_ascii_case(b"bearer") {
        return Credentials::Missing;
    }
    let given = trim_spaces(rest);
    if constant_time_eq(given, token.as_bytes()) {
        Credentials::Right
    } else {
        Credentials::Wrong
    }
}

fn trim_spaces(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| *b != b' ').unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| *b != b' ')
        .map_or(start, |i| i + 1);
    &bytes[start..end.max(start)]
}

/// Equal bytes, in time that depends only on the lengths.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The 401: a challenge naming the metadata document, with RFC 6750's
/// `invalid_token` only when a token was sent (and was wrong).
pub(crate) fn unauthorized(base: &str, why: &Credentials) -> Response<Body> {
    let metadata = format!("{base}{METADATA_PATH}");
    let (challenge, body) = match why {
        Credentials::Wrong => (
            format!(
                r#"Bearer realm="rove", resource_metadata="{metadata}", error="invalid_token", error_description="the bearer token is wrong""#
            ),
            json!({
                "error": "invalid_token",
                "error_description": "the bearer token is wrong: send Authorization: Bearer <token> with the token rove mcp --http printed (or ROVE_MCP_TOKEN)",
            }),
        ),
        _ => (
            format!(r#"Bearer realm="rove", resource_metadata="{metadata}""#),
            json!({
                "error": "unauthorized",
                "error_description": "no bearer token: send Authorization: Bearer <token> with the token rove mcp --http printed (or ROVE_MCP_TOKEN)",
            }),
        ),
    };
    let mut response = json_response(StatusCode::UNAUTHORIZED, &body);
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response
            .headers_mut()
            .insert(hyper::header::WWW_AUTHENTICATE, value);
    }
    response
}

/// The protected resource metadata (RFC 9728) for the resource at
/// `{base}/mcp`.
pub(crate) fn metadata(base: &str) -> Response<Body> {
    json_response(
        StatusCode::OK,
        &json!({
            "resource": format!("{base}/mcp"),
            "authorization_servers": [],
            "bearer_methods_supported": ["header"],
            "resource_name": "rove",
        }),
    )
}

/// A small JSON answer.
pub(crate) fn json_response(status: StatusCode, body: &serde_json::Value) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// 32 random bytes from the kernel, as hex.
pub(crate) fn generate_token() -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            hyper::header::AUTHORIZATION,
            HeaderValue::from_str(value).expect("header"),
        );
        headers
    }

    #[test]
    fn the_scheme_is_case_insensitive_and_the_token_is_not() {
        for right in [
            "Bearer s3cret",
            "bearer s3cret",
            "BEARER s3cret",
            "bEaReR   s3cret",
        ] {
            assert_eq!(credentials(&with(right), "s3cret"), Credentials::Right);
        }
        for wrong in ["Bearer S3CRET", "Bearer s3cre", "Bearer s3crett", "Bearer "] {
            assert_eq!(credentials(&with(wrong), "s3cret"), Credentials::Wrong);
        }
        for missing in ["Basic s3cret", "Bearers3cret", "s3cret"] {
            assert_eq!(credentials(&with(missing), "s3cret"), Credentials::Missing);
        }
        assert_eq!(
            credentials(&HeaderMap::new(), "s3cret"),
            Credentials::Missing
        );
    }
}
