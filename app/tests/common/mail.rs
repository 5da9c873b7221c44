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
