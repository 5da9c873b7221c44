//! Email in tests: the SMTP sink (aiosmtpd, `scripts/smtp-sink.py`) and the `.eml` files that
//! the sink or the file transport writes.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::repo_root;

/// The SMTP sink on a fixed port, storing messages as files.
pub struct Sink {
    child: Child,
    port: u16,
}

impl Sink {
    pub fn start(port: Port, dir: &Path) -> Sink {
        let port = port.release();
        let mut child = Command::new("/usr/bin/python3")
            .arg(repo_root().join("scripts/smtp-sink.py"))
            .arg(port.to_string())
            .arg(dir)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 with aiosmtpd (Debian: python3-aiosmtpd)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready");
        Sink { child, port }
    }

    /// The URL the app sends to.
    pub fn url(&self) -> String {
        smtp_url(self.port)
    }

    pub fn stop(self) {
        drop(self);
    }
}

/// A test that fails before `stop` must not leave the sink running (holding its port and
/// the test runner's output open).
impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A local port kept for a sink that has not started yet: bound but never listening, so
/// connections to it are refused (an SMTP server that is down) and no other test running in
/// parallel can be given it. `Sink::start` releases it just before the sink binds it.
pub struct Port {
    number: u16,
    _held: tokio::net::TcpSocket,
}

impl Port {
    /// The URL of the sink to come, refused until it starts.
    pub fn url(&self) -> String {
        smtp_url(self.number)
    }

    /// The port's number, free for the sink to bind.
    fn release(self) -> u16 {
        self.number
    }
}

fn smtp_url(port: u16) -> String {
    format!("smtp://127.0.0.1:{port}")
}

pub fn free_port() -> Port {
    let held = tokio::net::TcpSocket::new_v4().unwrap();
    held.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    Port {
        number: held.local_addr().unwrap().port(),
        _held: held,
    }
}

/// Every `.eml` under `dir`, as stored, sorted.
pub fn messages(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                .map(|e| std::fs::read_to_string(e.path()).unwrap())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The messages under `dir` once there are `n`, or whatever is there after `within`.
pub async fn wait_for(dir: &Path, n: usize, within: Duration) -> Vec<String> {
    let start = Instant::now();
    loop {
        let m = messages(dir);
        if m.len() >= n || start.elapsed() > within {
            return m;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A stored message as a reader sees it: its header section as sent (an `=e8` in a header,
/// a token in `List-Unsubscribe`, is not an escape), then the decoded text of every text part —
/// the plain text first, then the HTML part when there is one.
pub fn quoted_printable(raw: &str) -> String {
    let head = raw
        .find("\r\n\r\n")
        .or_else(|| raw.find("\n\n"))
        .map_or(raw, |at| &raw[..at]);
    let letter = parts(raw);
    format!(
        "{head}\r\n\r\n{}{}",
        letter.text,
        letter.html.as_deref().unwrap_or("")
    )
}

/// A message's parts, decoded.
#[derive(Debug)]
pub struct Parts {
    /// The top-level type, e.g. `multipart/alternative` or `text/plain`.
    pub content_type: String,
    pub text: String,
    /// The HTML part, when the message has one.
    pub html: Option<String>,
}

pub fn parts(raw: &str) -> Parts {
    use mail_parser::{MessageParser, MimeHeaders, PartType};
    let message = MessageParser::default()
        .parse(raw.as_bytes())
        .unwrap_or_else(|| panic!("not a message:\n{raw}"));
    let content_type = message
        .content_type()
        .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or_default()))
        .unwrap_or_else(|| "text/plain".into());
    let mut text = String::new();
    let mut html = None;
    for part in &message.parts {
        match &part.body {
            PartType::Text(t) if text.is_empty() => text = t.to_string(),
            PartType::Html(h) if html.is_none() => html = Some(h.to_string()),
            _ => {}
        }
    }
    Parts {
        content_type,
        text,
        html,
    }
}

/// The raw token of the first `…?token=` link in `message` (plain text).
pub fn token_in(message: &str, link: &str) -> String {
    let i = message
        .find(link)
        .unwrap_or_else(|| panic!("a link {link} in this message:\n{message}"))
        + link.len();
    let token: String = message[i..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~'))
        .collect();
    assert!(token.len() >= 16, "a real token: {token:?}");
    token
}
