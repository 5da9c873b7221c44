//! Command line: `agora serve | migrate | openapi | staff … | outbox … | seed --demo`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tokio::sync::watch;

use identity::Role;

use crate::settings::Settings;
use crate::startup::{openapi_json, Application};
use crate::state::Services;

#[derive(Parser)]
#[command(
    name = "agora",
    version,
    about = "The Agora: a youth-run political publication"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Migrate, then serve the site, the API and the rendered pages (the default).
    Serve,
    /// Apply database migrations and exit.
    Migrate,
    /// Print the OpenAPI contract.
    Openapi,
    /// Manage staff members and their access keys.
    Staff {
        #[command(subcommand)]
        command: StaffCommand,
    },
    /// Inspect, retry or discard queued email.
    Outbox {
        #[command(subcommand)]
        command: OutboxCommand,
    },
    /// Load data into the database.
    Seed {
        /// Load the demo articles, authors and covers when the database has no articles.
        #[arg(long)]
        demo: bool,
        /// Generate this many articles (for load tests: six categories, many lengths and
        /// writers, dated over three years).
        #[arg(long, value_name = "N")]
        bulk: Option<usize>,
        /// With --bulk: generate this many page views over the last year.
        #[arg(long, value_name = "N", default_value_t = 0, requires = "bulk")]
        views: usize,
        /// With --bulk: the random seed (the same seed, the same text).
        #[arg(long, default_value_t = 1, requires = "bulk")]
        seed: u64,
    },
}

#[derive(Subcommand)]
enum StaffCommand {
    /// Add a staff member; prints their access key (shown once) on the last line.
    Add {
        #[arg(long)]
        name: String,
        /// admin, writer, educator or content-director
        #[arg(long, value_parser = parse_role)]
        role: Role,
    },
    /// List staff members.
    List,
    /// Issue a new key (printed on the last line); the old key and its sessions stop working.
    RotateKey { id: String },
    /// Disable a staff member and end their sessions.
    Disable { id: String },
    /// Enable a disabled staff member again.
    Enable { id: String },
}

#[derive(Subcommand)]
enum OutboxCommand {
    /// The latest messages with their status, attempts and last error ("kept" says whether the
    /// body is still stored: only until delivery, discard or the retention of failed messages).
    List {
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Put a message back in line for delivery now.
    Retry { id: String },
    /// Give up on an unsent message for good: its body and attachment files are deleted, its
    /// metadata stays.
    Discard { id: String },
}

async fn outbox(services: &Services, command: OutboxCommand) -> anyhow::Result<()> {
    match command {
        OutboxCommand::List { limit } => {
            println!(
                "{:<38} {:<8} {:>8}  {:<20} {:<5} subject / last error",
                "id", "status", "attempts", "created", "body"
            );
            for m in services.outbox.list(limit).await? {
                println!(
                    "{:<38} {:<8} {:>8}  {:<20} {:<5} {}{}",
                    m.id,
                    m.status,
                    m.attempts,
                    m.created_at.format("%Y-%m-%d %H:%M:%S"),
                    if m.redacted_at.is_some() {
                        "gone"
                    } else {
                        "kept"
                    },
                    m.subject,
                    m.last_error.map(|e| format!(" / {e}")).unwrap_or_default()
                );
            }
        }
        OutboxCommand::Retry { id } => {
            if services.outbox.retry(&id).await? {
                println!("{id} will be delivered on the next run");
            } else {
                anyhow::bail!("no unsent message with id {id} whose body is still kept");
            }
        }
        OutboxCommand::Discard { id } => {
            if services.outbox.discard(&id).await? {
                println!("{id} discarded: its body and attachments are deleted");
            } else {
                anyhow::bail!("no unsent message with id {id} whose body is still kept");
            }
        }
    }
    Ok(())
}

fn parse_role(s: &str) -> Result<Role, String> {
    Role::parse(s).ok_or_else(|| "expected admin, writer, educator or content-director".into())
}

async fn staff(services: &Services, command: StaffCommand) -> anyhow::Result<()> {
    let identity = &services.identity;
    match command {
        StaffCommand::Add { name, role } => {
            let (user, key) = identity.add_staff(&name, role).await?;
            println!("added {} ({}) with id {}", user.name, user.role, user.id);
            println!("access key (shown once):");
            println!("{key}");
        }
        StaffCommand::List => {
            println!(
                "{:<38} {:<18} {:<8} {:<22} name",
                "id", "role", "active", "last sign-in"
            );
            for s in identity.staff().await? {
                let last = s
                    .last_login_at
                    .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
                    .unwrap_or_else(|| "never".into());
                println!(
                    "{:<38} {:<18} {:<8} {:<22} {}",
                    s.id,
                    s.role.as_str(),
                    s.active,
                    last,
                    s.name
                );
            }
        }
        StaffCommand::RotateKey { id } => {
            let key = identity.rotate_key(&id).await?;
            println!("new access key (shown once; the old one no longer works):");
            println!("{key}");
        }
        StaffCommand::Disable { id } => {
            identity.set_active(&id, false).await?;
            println!("disabled {id}; their sessions have ended");
        }
        StaffCommand::Enable { id } => {
            identity.set_active(&id, true).await?;
            println!("enabled {id}");
        }
    }
    Ok(())
}

pub async fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Serve);
    if let Command::Openapi = command {
        println!("{}", openapi_json());
        return ExitCode::SUCCESS;
    }
    let telemetry = match observability::init("agora") {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot set up logging: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = run(command).await;
    telemetry.shutdown();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command) -> anyhow::Result<()> {
    let settings = Settings::from_env()?;
    match command {
        Command::Openapi => Ok(()),
        Command::Migrate => {
            Services::connect(&settings, kernel::clock::system()).await?;
            tracing::info!("migrations applied");
            Ok(())
        }
        Command::Staff { command } => {
            let services = Services::connect(&settings, kernel::clock::system()).await?;
            staff(&services, command).await
        }
        Command::Outbox { command } => {
            let services = Services::connect(&settings, kernel::clock::system()).await?;
            outbox(&services, command).await
        }
        Command::Seed {
            demo,
            bulk,
            views,
            seed,
        } => {
            if !demo && bulk.is_none() {
                anyhow::bail!("nothing to seed: pass --demo or --bulk N");
            }
            let services = Services::connect(&settings, kernel::clock::system()).await?;
            if demo {
                println!("{}", crate::seed::demo(&services).await?);
            }
            if let Some(articles) = bulk {
                let bulk = crate::seed::Bulk {
                    articles,
                    views,
                    seed,
                };
                println!("{}", crate::seed::bulk(&services, bulk).await?);
            }
            services.views.shutdown().await;
            Ok(())
        }
        Command::Serve => {
            tracing::info!(?settings, "starting");
            let app = Application::build(settings.clone()).await?;
            let url = format!("http://{}:{}", settings.bind, app.port());
            tracing::info!(%url, "The Agora is listening");
            println!("The Agora is running at {url}");
            let (_stop, stopped) = watch::channel(false);
            app.run(stopped).await
        }
    }
}
