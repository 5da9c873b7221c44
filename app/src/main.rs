//! The `agora` binary: a thin entry point; everything lives in the library.

use std::process::ExitCode;

/// mimalloc instead of the system allocator: glibc's arenas take a lock that the server's
/// threads contend for on every response (seen as futex waits in a profile of cached pages).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    agora::cli::main().await
}
