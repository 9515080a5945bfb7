//! The MCP sessions of the HTTP server: rmcp's in-memory session manager,
//! with a cap on how many live at once. rmcp ends a session that has been
//! idle for its keep-alive (set from [`crate::HttpLimits::session_idle`]) and
//! then removes it, which ends its rove session and browser too.

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};

/// rmcp's [`LocalSessionManager`] that refuses a session beyond `max`.
#[derive(Debug)]
pub(crate) struct BoundedSessions {
    inner: LocalSessionManager,
    max: usize,
    /// Makes "count, then create" one step.
    creating: tokio::sync::Mutex<()>,
}

/// Why a session could not be made or used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SessionsError {
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
    #[error(
        "too many MCP sessions ({0}): end one with an HTTP DELETE or wait until an idle one expires"
    )]
    Full(usize),
}

impl BoundedSessions {
    pub(crate) fn new(max: usize, idle: std::time::Duration) -> BoundedSessions {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(idle);
        BoundedSessions {
            inner,
            max,
            creating: tokio::sync::Mutex::new(()),
        }
    }

    /// Sessions alive now.
    pub(crate) async fn count(&self) -> usize {
        self.inner.sessions.read().await.len()
    }

    /// Whether a new session would be refused.
    pub(crate) async fn full(&self) -> bool {
        self.count().await >= self.max
    }

    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// Whether `id` names a live session.
    pub(crate) async fn known(&self, id: &str) -> bool {
        let id: SessionId = id.to_owned().into();
        self.inner.sessions.read().await.contains_key(&id)
    }
}

impl SessionManager for BoundedSessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let _one_at_a_time = self.creating.lock().await;
        if self.full().await {
            return Err(SessionsError::Full(self.max));
        }
        Ok(self.inner.create_session().await?)
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }
}
