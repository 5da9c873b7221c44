//! What can go wrong in the content module, as its callers see it.

use kernel::ErrorCode;

pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    /// Bad input, with the message shown to the caller.
    #[error("{message}")]
    Invalid { code: ErrorCode, message: String },
    #[error("article not found")]
    NotFound,
    /// Something within an article is not there (a revision), with its code and words (404).
    #[error("{message}")]
    NotFoundWith { code: ErrorCode, message: String },
    #[error("Your role does not allow this.")]
    Forbidden,
    /// The role may not do this here, with the reason (403 with its own code).
    #[error("{message}")]
    Refused { code: ErrorCode, message: String },
    /// The piece's stage does not allow this now (409).
    #[error("{message}")]
    Conflict { code: ErrorCode, message: String },
    /// The edit was based on an older version: someone else saved meanwhile (409).
    #[error("the article was changed by someone else")]
    Stale(Box<crate::newsroom_dto::ConflictBody>),
    #[error("unexpected content error: {0}")]
    Unexpected(#[source] BoxError),
}

/// A database outage met by a load another request ran, as the requests that waited on it see
/// it: still an outage when that load was itself waiting on another (nested caches).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct SharedOutage(String);

impl From<sqlx::Error> for ContentError {
    fn from(e: sqlx::Error) -> Self {
        kernel::http::note_database_error(&e);
        ContentError::Unexpected(Box::new(e))
    }
}

impl ContentError {
    /// Whether this is the database being unreachable (down, restarting), not a fault.
    pub fn is_outage(&self) -> bool {
        match self {
            ContentError::Unexpected(e) => {
                e.is::<SharedOutage>()
                    || e.downcast_ref::<sqlx::Error>()
                        .is_some_and(kernel::db::is_unavailable)
            }
            _ => false,
        }
    }

    /// The error a cache's loader gave every caller that waited on it, as one caller's. An outage
    /// is noted for this caller's request too (the loader noted it in its own), so that it is
    /// answered 503 like the loader's, not 500.
    pub(crate) fn unshared(e: std::sync::Arc<ContentError>) -> ContentError {
        match std::sync::Arc::try_unwrap(e) {
            Ok(e) => e,
            Err(shared) if shared.is_outage() => {
                kernel::http::note_outage();
                ContentError::Unexpected(Box::new(SharedOutage(shared.to_string())))
            }
            Err(shared) => ContentError::Unexpected(shared.to_string().into()),
        }
    }

    pub(crate) fn invalid(code: impl Into<ErrorCode>, message: impl Into<String>) -> Self {
        ContentError::Invalid {
            code: code.into(),
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ContentError;
    use std::sync::Arc;

    /// Unshares `shared` (while a second waiter still holds it) within a request, and says
    /// whether that request was told the database could not be reached.
    async fn unshared_in_a_request(shared: ContentError) -> (ContentError, bool) {
        let shared = Arc::new(shared);
        let _other_waiter = Arc::clone(&shared);
        kernel::http::answering(async { ContentError::unshared(shared) }).await
    }

    #[tokio::test]
    async fn a_request_that_waited_on_a_load_failed_by_an_outage_is_told_so() {
        let (error, outage) =
            unshared_in_a_request(ContentError::from(sqlx::Error::PoolTimedOut)).await;
        assert!(outage, "answered 503 like the request that loaded");
        assert!(matches!(error, ContentError::Unexpected(_)), "{error:?}");
    }

    #[tokio::test]
    async fn an_outage_passed_on_through_two_loads_is_still_an_outage() {
        let (inner, _) = unshared_in_a_request(ContentError::from(sqlx::Error::PoolTimedOut)).await;
        let (_, outage) = unshared_in_a_request(inner).await;
        assert!(outage, "answered 503 like the request that loaded");
    }

    #[tokio::test]
    async fn a_load_failed_by_a_fault_stays_a_fault_for_those_waiting() {
        let (_, outage) = unshared_in_a_request(ContentError::from(sqlx::Error::RowNotFound)).await;
        assert!(!outage, "answered 500");
    }
}
