//! The HTTP server's connections: how many may be open, which one gives way
//! when that many are, an accept loop that backs off instead of spinning
//! when the process is out of file descriptors, and a socket that gives up
//! on a client that stopped reading.
//!
//! At the cap a new connection is not refused while some open one is idle:
//! the connection that has waited longest without sending a whole request
//! (a half-sent request, or nothing at all) is closed to make room, then an
//! idle kept-alive one. So a crowd of slow or half-open connections cannot
//! keep a real client out. Only when every connection is in the middle of a
//! request is a new one closed at once.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use rove_base::limits;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

/// The open connections.
#[derive(Debug)]
pub(crate) struct Connections {
    max: usize,
    open: Mutex<Registry>,
}

#[derive(Debug, Default)]
struct Registry {
    next: u64,
    /// By age: a smaller key was accepted earlier.
    conns: BTreeMap<u64, Entry>,
}

#[derive(Debug)]
struct Entry {
    activity: Arc<Activity>,
    stop: oneshot::Sender<()>,
}

/// What a connection is doing, as its request handler sees it.
#[derive(Debug, Default)]
pub(crate) struct Activity {
    /// Requests whose answer is still being written.
    busy: AtomicUsize,
    /// At least one whole request header arrived.
    served: AtomicBool,
}

impl Activity {
    /// Marks a request as begun until the returned guard is dropped (with
    /// the end of its response body).
    pub(crate) fn begin(self: &Arc<Self>) -> Busy {
        self.served.store(true, Ordering::Relaxed);
        self.busy.fetch_add(1, Ordering::AcqRel);
        Busy(self.clone())
    }

    fn idle(&self) -> bool {
        self.busy.load(Ordering::Acquire) == 0
    }
}

/// A request in progress on a connection.
#[derive(Debug)]
pub(crate) struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One admitted connection: its activity, the signal that it must close to
/// make room, and its place in the registry (given up when dropped).
#[derive(Debug)]
pub(crate) struct Ticket {
    id: u64,
    pub(crate) activity: Arc<Activity>,
    pub(crate) stop: oneshot::Receiver<()>,
    owner: Arc<Connections>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.owner.registry().conns.remove(&self.id);
    }
}

impl Connections {
    pub(crate) fn new(max: usize) -> Arc<Connections> {
        Arc::new(Connections {
            max: max.max(1),
            open: Mutex::new(Registry::default()),
        })
    }

    fn registry(&self) -> MutexGuard<'_, Registry> {
        match self.open.lock() {
            Ok(registry) => registry,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Open connections now.
    pub(crate) fn count(&self) -> usize {
        self.registry().conns.len()
    }

    /// Room for one more connection, closing an idle one at the cap; `None`
    /// when every open connection is busy.
    pub(crate) fn admit(self: &Arc<Self>) -> Option<Ticket> {
        let mut registry = self.registry();
        if registry.conns.len() >= self.max && !evict_one(&mut registry) {
            return None;
        }
        let id = registry.next;
        registry.next += 1;
        let (stop_tx, stop) = oneshot::channel();
        let activity = Arc::new(Activity::default());
        registry.conns.insert(
            id,
            Entry {
                activity: activity.clone(),
                stop: stop_tx,
            },
        );
        drop(registry);
        Some(Ticket {
            id,
            activity,
            stop,
            owner: self.clone(),
        })
    }

    /// Closes one idle connection to free its descriptor (when the process
    /// has none left); false when none is idle.
    pub(crate) fn relieve(&self) -> bool {
        evict_one(&mut self.registry())
    }
}

/// Closes the oldest connection that never sent a whole request, else the
/// oldest idle one.
fn evict_one(registry: &mut Registry) -> bool {
    let pick = |fresh_only: bool| {
        registry
            .conns
            .iter()
            .find(|(_, e)| {
                e.activity.idle() && !(fresh_only && e.activity.served.load(Ordering::Relaxed))
            })
            .map(|(id, _)| *id)
    };
    let Some(id) = pick(true).or_else(|| pick(false)) else {
        return false;
    };
    if let Some(entry) = registry.conns.remove(&id) {
        let _ = entry.stop.send(());
    }
    true
}

/// Accepts connections for ever, handing each admitted one to `serve`.
/// Errors (out of descriptors above all) back off from 5 ms to 1 s instead
/// of retrying at once, and free a descriptor by closing an idle connection.
pub(crate) async fn accept_loop<F>(listener: TcpListener, connections: Arc<Connections>, serve: F)
where
    F: Fn(TcpStream, Ticket),
{
    let mut backoff = Duration::ZERO;
    let mut warned: Option<std::time::Instant> = None;
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                backoff = Duration::ZERO;
                match connections.admit() {
                    Some(ticket) => serve(stream, ticket),
                    None => {
                        // A word before closing, if the socket takes it now.
                        let _ = stream.try_write(BUSY);
                        tracing::debug!("every connection is busy; closed a new one");
                    }
                }
            }
            Err(e) => {
                // Once a minute at most: at the descriptor limit this
                // repeats for as long as clients keep connecting.
                if warned.is_none_or(|at| at.elapsed() > limits::HTTP_ACCEPT_WARNING) {
                    tracing::warn!(error = %e, open = connections.count(), "cannot accept connections; backing off");
                    warned = Some(std::time::Instant::now());
                } else {
                    tracing::debug!(error = %e, "cannot accept connections; backing off");
                }
                if out_of_descriptors(&e) {
                    connections.relieve();
                }
                backoff = limits::HTTP_ACCEPT_BACKOFF.next(backoff);
                tokio::time::sleep(backoff).await;
            }
        }
    }
}

/// The whole answer to a connection there is no room for.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

fn out_of_descriptors(e: &std::io::Error) -> bool {
    use rustix::io::Errno;
    matches!(
        Errno::from_io_error(e),
        Some(Errno::MFILE | Errno::NFILE | Errno::NOBUFS | Errno::NOMEM)
    )
}

/// A socket whose writes fail once the client has not taken any bytes for
/// `timeout` (a client that stopped reading cannot hold a response, and its
/// connection, for ever). Reads pass through; hyper and the request handler
/// bound those.
#[derive(Debug)]
pub(crate) struct StallGuard<T> {
    io: T,
    timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> StallGuard<T> {
    pub(crate) fn new(io: T, timeout: Duration) -> StallGuard<T> {
        StallGuard {
            io,
            timeout,
            stalled: None,
        }
    }

    /// The write made no progress: fail once it has not for `timeout`.
    fn waited<R>(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<R>> {
        let timeout = self.timeout;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client stopped reading",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn progressed<R>(
        &mut self,
        poll: Poll<std::io::Result<R>>,
        cx: &mut Context<'_>,
    ) -> Poll<std::io::Result<R>> {
        match poll {
            Poll::Pending => self.waited(cx),
            ready => {
                self.stalled = None;
                ready
            }
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for StallGuard<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for StallGuard<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write(cx, buf);
        self.progressed(poll, cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.progressed(poll, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_flush(cx);
        self.progressed(poll, cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_cap_the_oldest_connection_without_a_request_gives_way() {
        let connections = Connections::new(3);
        let mut first = connections.admit().expect("room");
        let second = connections.admit().expect("room");
        let third = connections.admit().expect("room");
        // The first has sent a request and finished it; the second is busy.
        drop(first.activity.begin());
        let _busy = second.activity.begin();
        let fourth = connections.admit().expect("the third gives way");
        assert_eq!(connections.count(), 3);
        let mut third = third;
        assert!(third.stop.try_recv().is_ok(), "the third was told to stop");
        assert!(first.stop.try_recv().is_err(), "the first stays");
        // With no fresh one left, the oldest idle one, never the busy second.
        drop(fourth.activity.begin());
        let _fifth = connections.admit().expect("the first gives way");
        assert!(first.stop.try_recv().is_ok());
        assert_eq!(connections.count(), 3);
    }

    #[tokio::test]
    async fn a_write_the_client_never_reads_fails_after_the_timeout() {
        use tokio::io::AsyncWriteExt;
        let (ours, _client_never_reads) = tokio::io::duplex(64);
        let mut guarded = StallGuard::new(ours, Duration::from_millis(200));
        let started = std::time::Instant::now();
        let written =
            tokio::time::timeout(Duration::from_secs(10), guarded.write_all(&[b'x'; 4096]))
                .await
                .expect("the write gave up by itself");
        let error = written.expect_err("the client took nothing");
        assert_eq!(error.kind(), std::io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= Duration::from_millis(200));
    }

    #[tokio::test]
    async fn a_slow_but_steady_reader_is_not_cut_off() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (ours, mut client) = tokio::io::duplex(64);
        let mut guarded = StallGuard::new(ours, Duration::from_millis(300));
        let reader = tokio::spawn(async move {
            let mut total = 0;
            let mut chunk = [0u8; 16];
            while total < 1024 {
                tokio::time::sleep(Duration::from_millis(5)).await;
                total += client.read(&mut chunk).await.expect("read");
            }
            total
        });
        guarded.write_all(&[b'x'; 1024]).await.expect("written");
        assert_eq!(reader.await.expect("reader"), 1024);
    }

    #[test]
    fn when_every_connection_is_busy_a_new_one_is_refused() {
        let connections = Connections::new(1);
        let only = connections.admit().expect("room");
        let _busy = only.activity.begin();
        assert!(connections.admit().is_none());
        assert!(!connections.relieve());
    }
}
