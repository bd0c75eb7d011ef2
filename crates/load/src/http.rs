//! A small JSON client over HTTP/1 (hyper-util's pooled client).

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Method, Request};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;
use serde_json::Value;
use std::time::Duration;

/// Longest wait for one answer.
const TIMEOUT: Duration = Duration::from_secs(10);

/// A JSON client for one server.
#[derive(Clone)]
pub struct Http {
    client: Client<HttpConnector, Full<Bytes>>,
    base: String,
}

/// An answer: its status and its body as JSON (`Null` if it is not JSON).
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: Value,
}

impl Http {
    /// A client for the server at `base` (`http://host:port`, no trailing `/`).
    pub fn new(base: &str) -> Http {
        let client = Client::builder(TokioExecutor::new())
            // The server closes idle connections after its header timeout (10 s).
            .pool_idle_timeout(Duration::from_secs(4))
            .build_http();
        Http {
            client,
            base: base.trim_end_matches('/').to_string(),
        }
    }

    /// The server's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// `GET path`.
    pub async fn get(&self, path: &str) -> Result<Answer, String> {
        self.send(Method::GET, path, None, None).await
    }

    /// `POST path` with a JSON body and, if given, a bearer token.
    pub async fn post(
        &self,
        path: &str,
        body: &Value,
        token: Option<&str>,
    ) -> Result<Answer, String> {
        self.send(Method::POST, path, Some(body), token).await
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        token: Option<&str>,
    ) -> Result<Answer, String> {
        let mut req = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base));
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let bytes = body.map(|b| Bytes::from(b.to_string())).unwrap_or_default();
        let req = req.body(Full::new(bytes)).map_err(|e| e.to_string())?;
        let go = async {
            let res = self
                .client
                .request(req)
                .await
                .map_err(|e| format!("{e:?}"))?;
            let status = res.status().as_u16();
            let body = res
                .into_body()
                .collect()
                .await
                .map_err(|e| e.to_string())?
                .to_bytes();
            Ok(Answer {
                status,
                body: serde_json::from_slice(&body).unwrap_or(Value::Null),
            })
        };
        tokio::time::timeout(TIMEOUT, go)
            .await
            .map_err(|_| format!("no answer within {TIMEOUT:?}"))?
    }
}
