//! A TCP hop between rove and a browser, to make the browser look gone
//! (connections cut, or nothing listening) and come back on the same port.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A TCP proxy to `upstream` on 127.0.0.1.
#[derive(Debug)]
pub struct Proxy {
    /// Where it listens.
    pub port: u16,
    upstream: u16,
    accept: JoinHandle<()>,
    links: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Proxy {
    /// Listens on a free port.
    pub async fn start(upstream: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy"); // ok: test support, a failed set-up fails the test
        Proxy::serve(listener, upstream)
    }

    fn serve(listener: TcpListener, upstream: u16) -> Proxy {
        let port = listener.local_addr().expect("addr").port(); // ok: test support, a failed set-up fails the test
        let links: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let task_links = links.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let link = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(("127.0.0.1", upstream)).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                task_links.lock().expect("links").push(link); // ok: test support, a failed set-up fails the test
            }
        });
        Proxy {
            port,
            upstream,
            accept,
            links,
        }
    }

    /// Cuts every live connection; new ones are still accepted.
    pub fn cut(&self) {
        let mut links = self.links.lock().expect("links"); // ok: test support
        for link in links.drain(..) {
            link.abort();
        }
    }

    /// Stops listening and cuts every connection: the browser looks gone.
    /// Returns once the port is closed.
    pub async fn stop(&self) {
        self.accept.abort();
        self.cut();
        let started = Instant::now();
        while !self.accept.is_finished() {
            assert!(started.elapsed() < Duration::from_secs(5));
            tokio::task::yield_now().await;
        }
    }

    /// Listens again on the same port (after [`Proxy::stop`]): the browser
    /// is back.
    pub async fn restart(self) -> Proxy {
        let started = Instant::now();
        let listener = loop {
            match TcpListener::bind(("127.0.0.1", self.port)).await {
                Ok(listener) => break listener,
                Err(e) => {
                    assert!(
                        started.elapsed() < Duration::from_secs(5),
                        "port {} did not free: {e}",
                        self.port
                    );
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        };
        Proxy::serve(listener, self.upstream)
    }

    /// Listens again on the same port (after [`Proxy::stop`]), to another
    /// upstream: another browser answers where the first one was.
    pub async fn restart_to(mut self, upstream: u16) -> Proxy {
        self.upstream = upstream;
        self.restart().await
    }
}
