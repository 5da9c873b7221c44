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
}

impl Sink {
    pub fn start(port: u16, dir: &Path) -> Sink {
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
        Sink { child }
    }

    pub fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
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

/// A stored message with its body decoded when it was sent quoted-printable (mail bodies with
/// long lines, such as links, are sent that way). The header section is left as it is: an
/// `=e8` in a header (a token in `List-Unsubscribe`) is not an escape, and neither is one in a
/// body sent as plain 7-bit text.
pub fn quoted_printable(text: &str) -> String {
    let split = text
        .find("\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| text.find("\n\n").map(|i| i + 2));
    let Some(at) = split else {
        return decode_quoted_printable(text);
    };
    let (head, body) = text.split_at(at);
    let qp = head.lines().any(|line| {
        let line = line.to_ascii_lowercase();
        line.starts_with("content-transfer-encoding:") && line.contains("quoted-printable")
    });
    if qp {
        format!("{head}{}", decode_quoted_printable(body))
    } else {
        text.to_string()
    }
}

fn decode_quoted_printable(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' {
            if bytes[i..].starts_with(b"=\r\n") {
                i += 3;
                continue;
            }
            if let Some(hex) = text.get(i + 1..i + 3) {
                if let Ok(b) = u8::from_str_radix(hex, 16) {
                    out.push(b);
                    i += 3;
                    continue;
                }
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
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
