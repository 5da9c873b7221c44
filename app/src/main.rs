//! The `agora` binary: a thin entry point; everything lives in the library.

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    agora::cli::main().await
}
