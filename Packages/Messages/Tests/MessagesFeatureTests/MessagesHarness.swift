import Essentials
import FeatureKitTesting
import Foundation
import LocalStore
import LocalStoreTesting
import MessagesFeature
import SimAdminClient
import SimAdminSimulator

extension TestedFeature {
  /// The Messages module over its schema, showing times in Beijing time.
  static let messages = TestedFeature(
    Messages.module, schema: [Messages.schema],
    services: {
      $0.registering(
        MessagesDisplay(timeZone: TimeZone(identifier: "Asia/Shanghai") ?? .current))
    })
}

extension TestStore {
  /// A store whose Messages tables stop at schema `version`: an archive an older release wrote.
  static func messagesArchive(version: Int) throws -> TestStore {
    try TestStore(modules: [
      SchemaModule(name: "messages", migrations: Array(Messages.schema.migrations.prefix(version)))
    ])
  }
}

/// A transport that lets a test act on a device between SMS list pages (an injected fault):
/// `inner` (the harness's) carries the requests.
final class HookedTransport: HTTPTransport {
  let inner: any HTTPTransport
  let listPages = Locked(0)
  let hook: @Sendable (Int) -> Void

  init(_ inner: any HTTPTransport, hook: @escaping @Sendable (Int) -> Void = { _ in }) {
    self.inner = inner
    self.hook = hook
  }

  func send(_ request: HTTPRequest, timeout: TimeInterval) async throws(HTTPTransportError)
    -> HTTPResponse
  {
    let response = try await inner.send(request, timeout: timeout)
    if request.url.path == "/api/sms/list" {
      let page = listPages.withLock { count -> Int in
        count += 1
        return count
      }
      hook(page)
    }
    return response
  }
}

extension FeatureHarness {
  /// The message archive in the harness's store.
  var archive: MessageArchive { MessageArchive(store: store) }

  /// A syncer over the harness's connector reading `pageSize` rows a page (every page when
  /// `full`).
  func syncer(pageSize: Int, full: Bool = false) -> MessageSyncer {
    MessageSyncer(
      archive: archive, connector: connector, pageSize: pageSize, clock: clock.clock, full: full)
  }

  /// Every archived message.
  func all() throws -> [ArchivedMessage] {
    try archive.list(limit: 100_000)
  }
}

/// A device's message as a comparable string.
func messageIdentity(_ message: SimulatedSMS) -> String {
  // Invalid UTF-8 from the device is archived with U+FFFD in its place.
  let content =
    message.contentBytes.map { String(decoding: $0, as: UTF8.self) } ?? message.content
  return "\(message.direction)|\(message.phoneNumber)|\(message.timestamp)|\(content)"
}

/// An archived message as the same comparable string as its device row.
func messageIdentity(_ message: ArchivedMessage) -> String {
  "\(message.direction)|\(message.peer)|\(message.deviceTimestamp)|\(message.body)"
}
