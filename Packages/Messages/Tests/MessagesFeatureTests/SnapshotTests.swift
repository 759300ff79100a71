import Essentials
import Foundation
import MessagesFeature
import Testing
import ViewKit
import ViewKitTesting

@Suite("View snapshots")
struct SnapshotTests {
  static let zone = TimeZone(identifier: "Asia/Shanghai") ?? .current
  static let base = Date(timeIntervalSince1970: 1_767_225_600)

  static func message(
    _ id: Int64, _ direction: String, _ peer: String, _ body: String, minutes: Double
  )
    -> ArchivedMessage
  {
    ArchivedMessage(
      id: id, instanceID: "a1b2c3d4e5f6", instanceName: id % 2 == 0 ? "Lab CPE" : "上海-随身WiFi",
      direction: direction, peer: peer, peerKey: PeerNumber.key(peer), body: body,
      deviceAt: base.addingTimeInterval(-minutes * 60), deviceTimestamp: "2026-01-01 08:00:00",
      status: direction == "incoming" ? "received" : "sent", upstreamID: id, syncedAt: base,
      code: CodeDetector.standard.code(in: body), simNumber: id == 4 ? "+8613912345678" : nil)
  }

  static let messages = [
    message(4, "incoming", "95588", "【工商银行】您的验证码是482913，5分钟内有效。", minutes: 1),
    message(3, "outgoing", "+8613800138000", "See you at 7, bring the router", minutes: 30),
    message(2, "incoming", "Google", "G-123456 is your Google verification code.", minutes: 90),
    message(1, "incoming", "13800138000", "好的 👍", minutes: 600),
  ]

  static var states: [(String, ViewNode, ViewNode)] {
    let conversations = [
      Conversation(
        peerKey: "13800138000", peer: "+8613800138000", count: 2, latest: messages[1],
        instanceNames: ["Lab CPE", "上海-随身WiFi"]),
      Conversation(
        peerKey: "95588", peer: "95588", count: 1, latest: messages[0], instanceNames: ["Lab CPE"]),
    ]
    let entries = [
      OutboxEntry(
        id: 2, instanceID: "a1", instanceName: "Lab CPE", peer: "10086", body: "CXYE 1234",
        state: .queued, reason: OutboxReason(key: "client.error.timeout"), createdAt: base,
        updatedAt: base, expiresAt: base.addingTimeInterval(3600), sentAt: nil,
        attempts: [
          OutboxAttempt(
            at: base, result: "waiting", reason: OutboxReason(key: "client.error.timeout"))
        ]),
      OutboxEntry(
        id: 1, instanceID: "a2", instanceName: "上海-随身WiFi", peer: "+8613800138000",
        body: "你好", state: .failed,
        reason: OutboxReason(key: "client.error.upstream", arguments: ["message": "短信发送失败"]),
        createdAt: base, updatedAt: base, expiresAt: nil, sentAt: nil,
        attempts: [
          OutboxAttempt(
            at: base, result: "refused",
            reason: OutboxReason(key: "client.error.upstream", arguments: ["message": "短信发送失败"]))
        ]),
    ]
    return [AppLanguage.english, .simplifiedChinese].flatMap {
      language -> [(String, ViewNode, ViewNode)] in
      let tag = language == .english ? "en" : "zh"
      return [
        (
          "list-\(tag)",
          MessagesViews.list(
            MessageListState(
              messages: messages, showBodies: false, nextCursor: "bTE6MTc2NzoxMA", timeZone: zone),
            language: language), .text(Text(""))
        ),
        (
          "conversations-\(tag)",
          MessagesViews.conversations(
            ConversationsState(conversations: conversations, timeZone: zone), language: language),
          .text(Text(""))
        ),
        (
          "thread-\(tag)",
          MessagesViews.thread(
            ThreadState(
              peer: "+8613800138000", messages: [messages[1], messages[3]], timeZone: zone),
            language: language), .text(Text(""))
        ),
        (
          "outbox-\(tag)",
          MessagesViews.outbox(
            OutboxViewState(entries: entries, timeZone: zone), language: language),
          .text(Text(""))
        ),
      ]
    }
  }

  @Test("list, conversations, thread and outbox at 40/80/100/120 columns in English and Chinese")
  func snapshots() {
    for (name, view, _) in Self.states {
      let language: AppLanguage = name.hasSuffix("-zh") ? .simplifiedChinese : .english
      for width in [40, 80, 100, 120] {
        let text = TextRenderer.render(
          view, options: RenderOptions(width: width, language: language))
        assertSnapshot(of: text, named: "\(name)-\(width)")
      }
    }
  }

  @Test("a long instance name is shown whole or not at all", arguments: [80, 100, 150])
  func instanceNameKeepsItsWidth(width: Int) {
    var long = Self.messages
    for index in long.indices { long[index].instanceName = "Real Device Shanghai 2" }
    let text = TextRenderer.render(
      MessagesViews.list(
        MessageListState(messages: long, showBodies: false, nextCursor: nil, timeZone: Self.zone),
        language: .english), options: RenderOptions(width: width))
    let whole = text.components(separatedBy: "Real Device Shanghai 2").count - 1
    // At 80 columns the text needs the room; from 100 the name fits beside it.
    #expect(whole == (width >= 100 ? long.count : 0), "\(text)")
    #expect(!text.contains("Real Device Sh…"), "\(text)")
  }

  /// Senders and instance names as long as real ones get (a 1069 service number, a foreign
  /// mobile number, a name of 22 columns), and a SIM number on every message.
  static var longMessages: [ArchivedMessage] {
    let peers = ["1069012345678901", "+447911123456", "95588", "Google"]
    return messages.enumerated().map { offset, message in
      var message = message
      message.peer = peers[offset]
      message.peerKey = PeerNumber.key(peers[offset])
      message.instanceName = offset % 2 == 0 ? "Shenzhen Office CPE 2" : "上海-随身WiFi-备用机"
      message.simNumber = "+8613912345678"
      return message
    }
  }

  @Test("at 80 columns the list shows the text in both languages; SIM and instance go first")
  func textSurvivesAt80Columns() {
    for language in [AppLanguage.english, .simplifiedChinese] {
      let tag = language == .english ? "en" : "zh"
      for (name, messages) in [("list", Self.messages), ("list-long", Self.longMessages)] {
        let text = TextRenderer.render(
          MessagesViews.list(
            MessageListState(
              messages: messages, showBodies: false, nextCursor: nil, timeZone: Self.zone),
            language: language), options: RenderOptions(width: 80, language: language))
        let header = text.split(separator: "\n")[3]
        #expect(header.contains(language == .english ? "Text" : "内容"), "\(text)")
        #expect(!header.contains("SIM"), "\(text)")
        #expect(text.contains("See you at 7"), "\(text)")
        #expect(text.contains("【工商银行】您的验证"), "\(text)")
        assertSnapshot(of: text, named: "\(name)-80-text-\(tag)")
      }
    }
  }

  @Test("list masks bodies; the thread shows them")
  func masking() {
    let list = TextRenderer.render(
      MessagesViews.list(
        MessageListState(
          messages: Self.messages, showBodies: false, nextCursor: nil, timeZone: Self.zone),
        language: .english), options: RenderOptions(width: 120))
    #expect(!list.contains("482913"))
    let thread = TextRenderer.render(
      MessagesViews.thread(
        ThreadState(peer: "95588", messages: [Self.messages[0]], timeZone: Self.zone),
        language: .english), options: RenderOptions(width: 120))
    #expect(thread.contains("482913"))
    #expect(thread.contains("2026-01-01 07:59"))
  }
}
