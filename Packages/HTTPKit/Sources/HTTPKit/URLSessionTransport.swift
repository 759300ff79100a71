// Apple platforms only: on Linux, URLSession lives in FoundationNetworking (libcurl and its
// TLS stacks, ~25 ms of every process start), so SocketTransport is the transport there.
#if canImport(Darwin)
  import Dispatch
  import Essentials
  import Foundation

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// The real transport: one ephemeral `URLSession` shared by every instance.
  ///
  /// - No cookie storage, no cookie handling, no cache: the session adds the cookie itself.
  /// - Redirects are refused: a 3xx comes back to the caller as the response, so a cookie
  ///   never reaches another host.
  /// - The response size cap is enforced while the body arrives: the delegate counts bytes,
  ///   stops keeping them and answers `.tooLarge` the moment the cap is passed (at once when
  ///   `Content-Length` already says so), then cancels the task. On Linux, FoundationNetworking
  ///   may keep draining a fast endless body in the background until the server stops; the
  ///   caller is not kept waiting and no bytes past the cap are kept.
  /// - The timeout bounds the whole exchange, not only idle time: a trickling body ends too.
  public final class URLSessionTransport: HTTPTransport {
    /// The largest body accepted, bytes.
    public let maxResponseBytes: Int
    private let session: URLSession
    private let relay: TransportRelay

    /// A transport with a response cap of `maxResponseBytes` (default 8 MiB).
    public init(maxResponseBytes: Int = 8 * 1024 * 1024) {
      self.maxResponseBytes = maxResponseBytes
      let configuration = URLSessionConfiguration.ephemeral
      configuration.httpCookieStorage = nil
      configuration.httpShouldSetCookies = false
      configuration.httpCookieAcceptPolicy = .never
      configuration.urlCache = nil
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      configuration.httpMaximumConnectionsPerHost = 6
      let relay = TransportRelay()
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      queue.name = "HTTPKit.URLSessionTransport"
      self.relay = relay
      self.session = URLSession(configuration: configuration, delegate: relay, delegateQueue: queue)
    }

    deinit {
      session.invalidateAndCancel()
    }

    /// Sends `request`, ending with `.timeout` once `timeout` seconds have passed.
    public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(HTTPTransportError)
      -> HTTPResponse
    {
      var urlRequest = URLRequest(
        url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
      urlRequest.httpMethod = request.method.rawValue
      urlRequest.httpShouldHandleCookies = false
      for (name, value) in request.headers {
        urlRequest.setValue(value, forHTTPHeaderField: name)
      }
      urlRequest.httpBody = request.body
      if Task.isCancelled { throw .cancelled }

      let task = session.dataTask(with: urlRequest)
      let identifier = task.taskIdentifier
      let limit = maxResponseBytes
      let relay = self.relay
      let result: Result<HTTPResponse, HTTPTransportError> = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          relay.register(identifier, limit: limit, continuation: continuation)
          task.resume()
          DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            relay.fail(identifier, with: .timeout, task: task)
          }
        }
      } onCancel: {
        relay.fail(identifier, with: .cancelled, task: task)
      }
      return try result.get()
    }
  }

  /// Receives the session's delegate calls and finishes each pending request exactly once.
  final class TransportRelay: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `@unchecked`: all mutable state lives in `pending`, guarded by its lock.

    struct Pending {
      var continuation: CheckedContinuation<Result<HTTPResponse, HTTPTransportError>, Never>
      var limit: Int
      var body = Data()
      var response: HTTPURLResponse?
    }

    private let pending = Locked<[Int: Pending]>([:])

    func register(
      _ identifier: Int, limit: Int,
      continuation: CheckedContinuation<Result<HTTPResponse, HTTPTransportError>, Never>
    ) {
      pending.withLock { $0[identifier] = Pending(continuation: continuation, limit: limit) }
    }

    /// Ends the request now with `error` (if it is still pending) and cancels its task.
    ///
    /// The caller is answered at once rather than at the task's completion: on Linux,
    /// FoundationNetworking's `cancel()` can wait until a fast incoming body has ended, so the
    /// cancel is issued off the delegate queue and its completion is ignored.
    func fail(_ identifier: Int, with error: HTTPTransportError, task: URLSessionTask) {
      guard let entry = pending.withLock({ $0.removeValue(forKey: identifier) }) else { return }
      entry.continuation.resume(returning: .failure(error))
      DispatchQueue.global().async { task.cancel() }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
      let identifier = dataTask.taskIdentifier
      let limit = pending.withLock { state -> Int? in
        guard var entry = state[identifier] else { return nil }
        entry.response = response as? HTTPURLResponse
        state[identifier] = entry
        return response.expectedContentLength > Int64(entry.limit) ? entry.limit : nil
      }
      if let limit {
        fail(identifier, with: .tooLarge(limit: limit), task: dataTask)
        completionHandler(.cancel)
      } else {
        completionHandler(.allow)
      }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      let identifier = dataTask.taskIdentifier
      let limit = pending.withLock { state -> Int? in
        guard state[identifier] != nil else { return nil }
        let limit = state[identifier]?.limit ?? 0
        if (state[identifier]?.body.count ?? 0) + data.count > limit { return limit }
        state[identifier]?.body.append(data)
        return nil
      }
      if let limit { fail(identifier, with: .tooLarge(limit: limit), task: dataTask) }
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @escaping (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
      guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
        return
      }
      let result: Result<HTTPResponse, HTTPTransportError>
      if let error {
        result = .failure(Self.map(error))
      } else if let response = entry.response ?? (task.response as? HTTPURLResponse) {
        result = .success(
          HTTPResponse(
            status: response.statusCode, headers: Self.headers(of: response), body: entry.body))
      } else {
        result = .failure(.malformedResponse("no HTTP response"))
      }
      entry.continuation.resume(returning: result)
    }

    // MARK: - Mapping

    static func headers(of response: HTTPURLResponse) -> [String: String] {
      var headers: [String: String] = [:]
      for (key, value) in response.allHeaderFields {
        guard let name = key as? String else { continue }
        headers[name.lowercased()] = value as? String ?? String(describing: value)
      }
      return headers
    }

    /// A system networking error as the reason a device is unreachable.
    static func map(_ error: any Error) -> HTTPTransportError {
      guard let urlError = error as? URLError else {
        return .unreachable(.other(String(describing: error)))
      }
      switch urlError.code {
      case .timedOut: return .timeout
      case .cancelled: return .cancelled
      case .cannotConnectToHost: return .unreachable(.refused)
      case .cannotFindHost, .dnsLookupFailed: return .unreachable(.dns)
      case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
        .clientCertificateRejected, .clientCertificateRequired:
        return .unreachable(.tls)
      case .networkConnectionLost, .badServerResponse, .zeroByteResource:
        return .unreachable(.reset)
      default:
        return .unreachable(.other(urlError.localizedDescription))
      }
    }
  }
#endif
