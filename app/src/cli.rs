//! Command line: `agora serve | migrate | openapi | seed --demo`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tokio::sync::watch;

use crate::settings::Settings;
use crate::startup::{openapi_json, Application, Services};

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
    /// Load data into the database.
    Seed {
        /// Load the demo articles, authors and covers when the database has no articles.
        #[arg(long)]
        demo: bool,
    },
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
            Services::connect(&settings.database_url).await?;
            tracing::info!("migrations applied");
            Ok(())
        }
        Command::Seed { demo } => {
            if !demo {
                anyhow::bail!("nothing to seed: pass --demo");
            }
            let services = Services::connect(&settings.database_url).await?;
            let report = crate::seed::demo(&services, &settings.data_dir).await?;
            println!("{report}");
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
