//! A span for every store method, written once: a store trait declared through
//! [`traced_store!`](crate::traced_store) comes with a wrapper that runs each method of the
//! store it wraps inside a span named `Trait.method` (target `trace_only`: exported with the
//! traces, never a log line), so a trace shows which store calls a request made and how long
//! each took, on either engine.

#[doc(hidden)]
pub mod __private {
    pub use async_trait::async_trait;
    pub use tracing;
}

/// Declares an async store trait (`#[async_trait]`, every method `async fn` taking `&self`)
/// and `$traced<S>`, which implements it by calling `S` inside a span per method:
///
/// ```ignore
/// kernel::traced_store! {
///     /// Doc of the trait.
///     pub trait FlashStore: Send + Sync, traced as TracedFlashStore {
///         async fn put(&self, key: &str) -> Result<(), sqlx::Error>;
///     }
/// }
/// ```
#[macro_export]
macro_rules! traced_store {
    (
        $(#[$tmeta:meta])*
        $vis:vis trait $name:ident: Send + Sync, traced as $traced:ident {
            $(
                $(#[$mmeta:meta])*
                async fn $method:ident(&self $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty;
            )*
        }
    ) => {
        $(#[$tmeta])*
        #[$crate::traced::__private::async_trait]
        $vis trait $name: Send + Sync {
            $(
                $(#[$mmeta])*
                async fn $method(&self $(, $arg: $ty)*) -> $ret;
            )*
        }

        /// The wrapped store, each method in a span of its own (see `kernel::traced`).
        $vis struct $traced<S>(pub S);

        #[$crate::traced::__private::async_trait]
        impl<S: $name> $name for $traced<S> {
            $(
                async fn $method(&self $(, $arg: $ty)*) -> $ret {
                    use $crate::traced::__private::tracing::Instrument as _;
                    let span = $crate::traced::__private::tracing::info_span!(
                        target: "trace_only",
                        concat!(stringify!($name), ".", stringify!($method)),
                    );
                    self.0.$method($($arg),*).instrument(span).await
                }
            )*
        }
    };
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    crate::traced_store! {
        /// A store for the test.
        pub trait NoteStore: Send + Sync, traced as TracedNoteStore {
            /// Adds a note.
            async fn add(&self, text: &str, times: usize) -> Result<usize, String>;
            async fn count(&self) -> usize;
        }
    }

    struct Notes(Mutex<Vec<String>>);

    #[async_trait::async_trait]
    impl NoteStore for Notes {
        async fn add(&self, text: &str, times: usize) -> Result<usize, String> {
            let mut notes = self.0.lock().map_err(|e| e.to_string())?;
            for _ in 0..times {
                notes.push(text.to_string());
            }
            Ok(notes.len())
        }
        async fn count(&self) -> usize {
            self.0.lock().map(|n| n.len()).unwrap_or(0)
        }
    }

    /// Records the names of the spans opened.
    struct Names(Arc<Mutex<Vec<String>>>);

    impl tracing::Subscriber for Names {
        fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
            let mut names = self.0.lock().unwrap_or_else(|e| e.into_inner());
            names.push(format!(
                "{} {}",
                span.metadata().target(),
                span.metadata().name()
            ));
            tracing::span::Id::from_u64(names.len() as u64)
        }
        fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, _: &tracing::Event<'_>) {}
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
    }

    #[tokio::test]
    async fn every_method_runs_in_a_span_named_after_it_and_answers_as_the_store() {
        let names = Arc::new(Mutex::new(Vec::new()));
        let _guard = tracing::subscriber::set_default(Names(names.clone()));
        let store: Arc<dyn NoteStore> = Arc::new(TracedNoteStore(Notes(Mutex::new(Vec::new()))));
        assert_eq!(store.add("hello", 2).await, Ok(2));
        assert_eq!(store.count().await, 2);
        let names = names.lock().map(|n| n.clone()).unwrap_or_default();
        assert_eq!(
            names,
            ["trace_only NoteStore.add", "trace_only NoteStore.count"]
        );
    }
}
