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
    /// The database could not be reached (down, restarting), with what the driver said: not
    /// a fault, so the request is answered 503 with `Retry-After`. The kind survives being
    /// handed from a load to every request that waited on it.
    #[error("the database cannot be reached: {0}")]
    Unavailable(String),
    #[error("unexpected content error: {0}")]
    Unexpected(#[source] BoxError),
}

impl From<sqlx::Error> for ContentError {
    fn from(e: sqlx::Error) -> Self {
        ContentError::of_db(e)
    }
}

impl ContentError {
    /// Whether this is the database being unreachable (down, restarting), not a fault.
    pub fn is_outage(&self) -> bool {
        matches!(self, ContentError::Unavailable(_))
    }

    /// Notes an outage for the request being answered, where the error becomes its answer:
    /// the error may have been met in another task (a load another request ran), whose
    /// request was the one noted then.
    pub fn noted(self) -> Self {
        self.note();
        self
    }

    /// [`ContentError::noted`], for an error that is only looked at.
    pub fn note(&self) {
        if self.is_outage() {
            kernel::http::note_outage();
        }
    }

    /// The error a cache's loader gave every caller that waited on it, as one caller's, of
    /// the same kind when it was an outage. The answer site notes the outage for its request.
    pub(crate) fn unshared(e: std::sync::Arc<ContentError>) -> ContentError {
        match std::sync::Arc::try_unwrap(e) {
            Ok(e) => e,
            Err(shared) => match &*shared {
                ContentError::Unavailable(said) => ContentError::Unavailable(said.clone()),
                other => ContentError::Unexpected(other.to_string().into()),
            },
        }
    }

    /// A database error a cache's loader gave every caller that waited on it, as one caller's.
    pub(crate) fn unshared_db(e: std::sync::Arc<sqlx::Error>) -> ContentError {
        ContentError::of_db(e)
    }

    /// A database error, owned or shared, as this module's: an outage when the driver says
    /// the database cannot be reached (noted for the request meeting it), a fault otherwise.
    fn of_db<E>(e: E) -> ContentError
    where
        E: std::borrow::Borrow<sqlx::Error> + std::error::Error + Send + Sync + 'static,
    {
        if kernel::db::is_unavailable(e.borrow()) {
            kernel::http::note_outage();
            ContentError::Unavailable(e.to_string())
        } else {
            ContentError::Unexpected(Box::new(e))
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

    /// Unshares `shared` (while a second waiter still holds it) in a request of its own and
    /// answers with it, as the API does, and says what that request got and whether it was
    /// told the database could not be reached.
    async fn unshared_in_a_request(shared: ContentError) -> (ContentError, bool) {
        let shared = Arc::new(shared);
        let _other_waiter = Arc::clone(&shared);
        kernel::http::answering(async { ContentError::unshared(shared).noted() }).await
    }

    /// An outage met outside any request (a load that ran in another task).
    fn outage() -> ContentError {
        ContentError::from(sqlx::Error::PoolTimedOut)
    }

    #[tokio::test]
    async fn a_request_that_waited_on_a_load_failed_by_an_outage_is_told_so() {
        let (error, noted) = unshared_in_a_request(outage()).await;
        assert!(noted, "answered 503 like the request that loaded");
        assert!(error.is_outage(), "{error:?}");
    }

    #[tokio::test]
    async fn an_outage_passed_on_through_two_loads_is_still_an_outage() {
        let (inner, _) = unshared_in_a_request(outage()).await;
        let (error, noted) = unshared_in_a_request(inner).await;
        assert!(noted && error.is_outage(), "{error:?}");
    }

    #[tokio::test]
    async fn a_shared_database_error_keeps_its_kind() {
        let (error, noted) = kernel::http::answering(async {
            ContentError::unshared_db(Arc::new(sqlx::Error::PoolClosed))
        })
        .await;
        assert!(noted && error.is_outage(), "{error:?}");
        let (error, noted) = kernel::http::answering(async {
            ContentError::unshared_db(Arc::new(sqlx::Error::RowNotFound))
        })
        .await;
        assert!(!noted && !error.is_outage(), "{error:?}");
    }

    #[tokio::test]
    async fn an_outage_met_in_another_task_is_noted_where_it_is_answered() {
        let met = tokio::spawn(async { outage() }).await.unwrap();
        let (error, noted) = kernel::http::answering(async { met.noted() }).await;
        assert!(noted && error.is_outage(), "{error:?}");
    }

    #[tokio::test]
    async fn a_load_failed_by_a_fault_stays_a_fault_for_those_waiting() {
        let (error, noted) =
            unshared_in_a_request(ContentError::from(sqlx::Error::RowNotFound)).await;
        assert!(!noted && !error.is_outage(), "answered 500: {error:?}");
    }
}
