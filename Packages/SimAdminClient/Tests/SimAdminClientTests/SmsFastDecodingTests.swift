import Foundation
import SimAdminSimulator
import Testing

@testable import SimAdminClient

/// The SMS fast path (``JSONCursor``) against the `JSONDecoder` path it replaces: every input
/// must give the same messages, byte for byte, or the same error.
@Suite("SMS pages: fast path against JSONDecoder")
struct SmsFastDecodingTests {
  /// One message with every string as its bytes (`String ==` would equate canonically
  /// equivalent texts).
  struct Exact: Equatable, CustomStringConvertible {
    var id: Int64
    var fields: [[UInt8]]
    var pdu: [UInt8]?

    init(_ message: SmsMessage) {
      id = message.id
      fields = [
        message.direction, message.phoneNumber, message.content, message.timestamp, message.status,
      ].map { Array($0.utf8) }
      pdu = message.pdu.map { Array($0.utf8) }
    }

    var description: String {
      "\(id) \(fields.map { String(decoding: $0, as: UTF8.self).debugDescription }) \(pdu.map { String(decoding: $0, as: UTF8.self) } ?? "nil")"
    }
  }

  /// What `smsList` makes of a body.
  enum Outcome: Equatable {
    case messages([Exact])
    case failure(SimAdminError)
  }

  static func outcome(_ body: Data, fastPath: Bool) -> Outcome {
    do {
      let list = try SimAdminSession.decodePayload(
        body, as: SmsMessageList.self, enveloped: true, fastPath: fastPath,
        endpoint: "GET /api/sms/list")
      return .messages(list.messages.map(Exact.init))
    } catch {
      return .failure(error)
    }
  }

  /// Decodes `body` both ways and expects the same outcome; when the fast path answers, its
  /// envelope must also equal `JSONDecoder`'s field for field. Returns whether it answered.
  @discardableResult
  static func compare(_ body: Data, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let text = String(decoding: body.prefix(400), as: UTF8.self)
    let old = outcome(body, fastPath: false)
    let new = outcome(body, fastPath: true)
    #expect(old == new, "\(text)", sourceLocation: sourceLocation)
    guard let fast = Envelope<SmsMessageList>(reading: body) else { return false }
    do {
      let slow = try JSONDecoder().decode(Envelope<SmsMessageList>.self, from: body)
      #expect(Array(fast.status.utf8) == Array(slow.status.utf8), sourceLocation: sourceLocation)
      #expect(Array(fast.message.utf8) == Array(slow.message.utf8), sourceLocation: sourceLocation)
      #expect(
        fast.data.map { $0.messages.map(Exact.init) }
          == slow.data.map { $0.messages.map(Exact.init) },
        sourceLocation: sourceLocation)
    } catch {
      Issue.record(
        "the fast path read what JSONDecoder refuses: \(text)", sourceLocation: sourceLocation)
    }
    return true
  }

  static func envelope(_ messages: String) -> Data {
    Data((#"{"status":"ok","message":"Success","data":{"messages":["# + messages + "]}}").utf8)
  }

  static func page(_ message: String) -> Data {
    envelope(
      #"{"id":1,"direction":"incoming","phone_number":"10086","content":"x","timestamp":"2026-01-01 00:00:00","status":"received","pdu":null},"#
        + message)
  }

  // MARK: - Fixtures

  @Test("the model fixture and SimAdmin's own shapes")
  func fixtures() throws {
    let list =
      #"{"messages":[{"id":2,"direction":"incoming","phone_number":"+8613800138000","content":"您的验证码是 482913","timestamp":"2026-01-01 00:30:00","status":"received","pdu":"mmfp:0123abcd"},{"id":1,"direction":"outgoing","phone_number":"10086","content":"CXLL","timestamp":"2025-12-31 23:59:59","status":"sent","pdu":null},{"id":"bad"},{"id":3,"direction":"incoming","phone_number":"Unknown","content":"","timestamp":"garbage","status":"received"}]}"#
    #expect(Self.compare(Data((#"{"status":"ok","message":"Success","data":"# + list + "}").utf8)))
    let plain = try JSONDecoder().decode(SmsMessageList.self, from: Data(list.utf8))
    #expect(plain.messages.map(\.id) == [2, 1, 3])
    #expect(
      Self.outcome(Data((#"{"status":"ok","data":"# + list + "}").utf8), fastPath: true)
        == .messages(plain.messages.map(Exact.init)))
    #expect(Self.compare(Data(#"{"status":"error","message":"未找到调制解调器"}"#.utf8)))
    #expect(
      Self.outcome(Data(#"{"status":"error","message":"未找到调制解调器"}"#.utf8), fastPath: true)
        == .failure(.upstream(message: "未找到调制解调器")))
    #expect(Self.compare(Self.envelope("")))
    #expect(Self.outcome(Self.envelope(""), fastPath: true) == .messages([]))
  }

  // MARK: - Odd cases

  /// Inputs, and whether the fast path must answer them itself (it steps aside for what only
  /// JSONDecoder settles: malformed or non-strict JSON, lone surrogates, numbers it reads
  /// through Decimal, nesting past 64, shapes it refuses).
  static let oddMessages: [(String, Bool)] = [
    (#"{"id":"12"}"#, true), (#"{"id":" 12"}"#, true), (#"{"id":"12abc"}"#, true),
    (#"{"id":"+5"}"#, true), (#"{"id":"-5.9"}"#, true), (#"{"id":5.9}"#, true),
    (#"{"id":-5.9}"#, true), (#"{"id":-0.5}"#, true), (#"{"id":1e19}"#, true),
    (#"{"id":9e18}"#, false), (#"{"id":8.9e18}"#, false), (#"{"id":8.9e15}"#, true),
    (#"{"id":"1e3"}"#, true),
    (#"{"id":""}"#, true), (#"{"id":true}"#, true), (#"{"id":null}"#, true),
    (#"{"direction":"incoming"}"#, true), (#"{"id":"٣"}"#, true),
    (#"{"id":9223372036854775807}"#, true), (#"{"id":9223372036854775808}"#, true),
    (#"{"id":-9223372036854775808}"#, true), (#"{"id":-9223372036854775809}"#, false),
    (#"{"id":1.5e1}"#, true), (#"{"id":0.1e1}"#, true), (#"{"id":1e-400}"#, true),
    (#"{"id":1e400}"#, true), (#"{"id":"\u00a05"}"#, true), (#"{"id":"inf"}"#, true),
    (#"{"id":"nan"}"#, true), (#"{"id":{}}"#, true), (#"{"id":[1]}"#, true),
    (#"{"id":"0x10"}"#, true), (#"{"id":".5"}"#, true), (#"{"id":"5."}"#, true),
    (#"{"id":"1_000"}"#, true), (#"{"id":"--1"}"#, true), (#"{"id":"   "}"#, true),
    (#"{"id":9007199254740993.0}"#, false), (#"{"id":123456789012345678.5}"#, false),
    (#"{"id":4,"content":1.0}"#, true), (#"{"id":4,"content":-0.0}"#, true),
    (#"{"id":4,"content":-0}"#, true), (#"{"id":4,"content":1e3}"#, true),
    (#"{"id":4,"content":1.5}"#, true), (#"{"id":4,"content":1e20}"#, true),
    (#"{"id":4,"content":1e400}"#, true), (#"{"id":4,"content":-1e400}"#, true),
    (#"{"id":4,"content":12345678901234567890}"#, true),
    (#"{"id":4,"content":9223372036854775808}"#, true), (#"{"id":4,"content":5e-324}"#, true),
    (#"{"id":4,"content":2.5e-324}"#, true), (#"{"id":4,"content":1e-5}"#, true),
    (#"{"id":4,"content":100e-2}"#, true), (#"{"id":4,"content":0.1}"#, true),
    (#"{"id":4,"content":1.7976931348623159e308}"#, true),
    (#"{"id":4,"content":true,"status":false,"direction":null}"#, true),
    (#"{"id":4,"content":[1],"phone_number":{"a":1},"timestamp":[]}"#, true),
    (#"{"id":4,"content":"\u0000"}"#, true), (#"{"id":4,"content":"\ud83d\ude00"}"#, true),
    (#"{"id":4,"content":"😀👍🏽 中文 é"}"#, true),
    (#"{"id":4,"content":"\"\\\/\b\f\n\r\t"}"#, true),
    (#"{"id":4,"content":"\ud800"}"#, false), (#"{"id":4,"content":"\uDE00\uD83D"}"#, false),
    (#"{"id":4,"content":"a","x":"\udc00"}"#, false),
    (#"{"id":4,"pdu":null}"#, true), (#"{"id":4,"pdu":5}"#, true), (#"{"id":4,"pdu":false}"#, true),
    (#"{"id":4,"pdu":{}}"#, true), (#"{"id":4,"pdu":"mmfp:0123"}"#, true),
    (#"{"id":1,"id":2}"#, true), (#"{"id":null,"id":3}"#, true),
    (#"{"id":4,"content":"a","content":"b","pdu":"p","pdu":null}"#, true),
    (#"{"id":4,"x":{"a":[1,{"b":[null,true,"\u00e9",-1.5e-7]}]},"content":"after"}"#, true),
    (#"{"id":4,"extra":[[[[[]]]]],"status":"sent"}"#, true),
    (#"{"\u0069d":7,"phone\u005fnumber":"x","c\u006fntent":"y"}"#, true),
    (#"{"ID":7,"Id":8,"id ":9,"id":10}"#, true),
    ("{ \"id\" : 5 ,\n\t\"content\" :\r\n \"spaced\" , \"pdu\" : null }", true),
    (
      #"{"pdu":"p","status":"s","timestamp":"t","content":"c","phone_number":"n","direction":"d","id":6}"#,
      true
    ),
    (
      #"{"id":1,"direction":"incoming","phone_number":"1","content":"c","timestamp":"t","status":"s","pdu":null,"more":1}"#,
      true
    ),
    (
      #"{"id":1,"direction":"incoming","phone_number":"1","content":"c","timestamp":"t","status":"s"}"#,
      true
    ),
    (
      #"{"id":1,"direction":"incoming","phone_number":"1","content":"c","timestamp":"t","status":"s","pdu":null }"#,
      true
    ),
    (
      #"{"id":"x","direction":"incoming","phone_number":"1","content":"c","timestamp":"t","status":"s","pdu":null}"#,
      true
    ),
    (#"1,"a",null,[],{},{"id":2}"#, true), ("[[[[[]]]]]", true),
    (
      #"{"id":4,"x":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        + "}", false
    ),
    (
      #"{"id":4,"x":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        + "}", false
    ),
    (#"{"id":4,"x":01}"#, false), (#"{"id":4,"x":1.}"#, false), (#"{"id":4},"#, false),
    ("{\"id\":4,\"content\":\"raw\u{01}control\"}", false),
  ]

  @Test("odd messages", arguments: 0..<oddMessages.count)
  func oddMessage(_ index: Int) {
    let (message, fast) = Self.oddMessages[index]
    #expect(Self.compare(Self.page(message)) == fast, "\(message)")
    #expect(Self.compare(Self.envelope(message)) == fast, "\(message)")
  }

  static let oddEnvelopes: [(String, Bool)] = [
    (#"{"status":"ok"}"#, true), (#"{"status":"ok","data":null}"#, true),
    (#"{"status":"ok","data":{}}"#, false), (#"{"status":"ok","data":[]}"#, false),
    (#"{"status":"ok","data":5}"#, false), (#"{"status":"ok","data":"x"}"#, false),
    (#"{"status":"ok","data":{"messages":null}}"#, false),
    (#"{"status":"ok","data":{"messages":{}}}"#, false),
    (#"{"status":"ok","data":{"messages":"x"}}"#, false),
    (#"{"status":"ok","data":{"messages":[],"messages":[{"id":1}]}}"#, true),
    (#"{"status":"ok","data":{"messages":null,"messages":[{"id":1}]}}"#, false),
    (#"{"status":"ok","data":null,"data":{"messages":[{"id":1}]}}"#, true),
    (#"{"status":"ok","status":"error","data":{"messages":[]}}"#, true),
    (#"{"status":"error","status":"ok","message":"m"}"#, true),
    (#"{"status":"error","message":"坏了"}"#, true), (#"{"status":"ERROR","message":5}"#, true),
    (#"{"status":"Error","message":"Failed: no modem","data":{"messages":[{"id":1}]}}"#, true),
    (#"{"status":"error","message":"x","data":[]}"#, false),
    (#"{"status":"error","message":null,"data":{"messages":5}}"#, false),
    (#"{"status":"OK","message":true,"data":{"messages":[]}}"#, true),
    (#"{"status":"o\u004b","data":{"messages":[]}}"#, true),
    ("{\"status\":\"o\u{212A}\",\"data\":{\"messages\":[{\"id\":1}]}}", true),
    (#"{"status":"fail","message":"m"}"#, true), (#"{"status":""}"#, true),
    (#"{"status":1}"#, false), (#"{"status":null}"#, false), (#"{"status":[]}"#, false),
    (#"{}"#, false), (#"{"message":"no status","data":{"messages":[]}}"#, false),
    (#"{"status":"ok","message":1.5e300,"data":{"messages":[]}}"#, true),
    (#"{"status":"ok","message":{"a":[1]},"data":{"messages":[]}}"#, true),
    (#"{"status":"ok","message":-9223372036854775809,"data":{"messages":[]}}"#, false),
    (#"{"status":"ok","message":"\ud800","data":{"messages":[]}}"#, false),
    (#"{"status":"\ud800","data":{"messages":[]}}"#, false),
    (#"{"st\ud800":1,"status":"ok","data":{"messages":[]}}"#, false),
    (#"{"data":{"messages":[{"id":3}]},"status":"ok","message":"later"}"#, true),
    (#"{"status":"ok","data":{"messages":[{"id":3}]},"extra":{"deep":[[1,2],{"x":null}]}}"#, true),
    ("  {\"status\":\"ok\",\"data\":{\"messages\":[]}}\n\r\t ", true),
    ("[]", false), ("null", false), ("\"ok\"", false), ("5", false), ("", false), (" ", false),
    ("x", false), ("<html>502 Bad Gateway</html>", false), ("API endpoint not found", false),
    (#"{"status":"ok","data":{"messages":[]}} x"#, false),
    (#"{"status":"ok","data":{"messages":[]}}{}"#, false),
    (#"{"status":"ok",}"#, false), (#"{"status":"ok","data":{"messages":[{"id":1},]}}"#, false),
    ("\u{FEFF}{\"status\":\"ok\",\"data\":{\"messages\":[]}}", false),
    (#"{"status":"ok","data":{"messages":[{"id":1}]"#, false),
    (#"{"status":"ok","data":{"messages":[{"id":1,"content":"unterminated}]}}"#, false),
  ]

  @Test("odd envelopes and bodies that are not JSON", arguments: 0..<oddEnvelopes.count)
  func oddEnvelope(_ index: Int) {
    let (body, fast) = Self.oddEnvelopes[index]
    #expect(Self.compare(Data(body.utf8)) == fast, "\(body)")
  }

  @Test("not-JSON bodies are malformedResponse on both paths, with the same detail")
  func notJSON() {
    for body in ["", "x", "[1,", "{\"status\":", "<html>", "{\"status\":\"ok\"} trailing"] {
      let outcome = Self.outcome(Data(body.utf8), fastPath: true)
      guard case .failure(.malformedResponse) = outcome else {
        Issue.record("\(body): \(outcome)")
        continue
      }
      #expect(outcome == Self.outcome(Data(body.utf8), fastPath: false))
    }
  }

  @Test("invalid UTF-8 anywhere steps aside and still matches")
  func invalidUTF8() {
    for bad: [UInt8] in [
      [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    ] {
      for field in ["content", "status", "x"] {
        let head = Data((#"{"status":"ok","data":{"messages":[{"id":1,""# + field + #"":"a"#).utf8)
        let body = head + Data(bad) + Data(#""}]}}"#.utf8)
        #expect(!Self.compare(body))
      }
    }
  }

  @Test("truncated pages, trailing garbage and swapped bytes never crash and still match")
  func corruptions() {
    var random = SeededRandom(seed: 0xC0DE)
    for round in 0..<60 {
      var writer = PageWriter(random: SeededRandom(seed: UInt64(round)))
      let page = Array(writer.page())
      Self.compare(Data(page[..<random.int(page.count)]))
      Self.compare(Data(page + Array(random.pick(["x", ",", "}", "]", "\u{0}", " 1", "{}"]).utf8)))
      var swapped = page
      swapped[random.int(page.count)] = random.pick(
        Array("{}[]\",:\\0a-e.\u{7F}".utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF])
      Self.compare(Data(swapped))
    }
  }

  // MARK: - Random pages

  @Test("500 seeded random pages")
  func randomPages() {
    var answered = 0
    var clean = 0
    for seed in 0..<500 {
      var writer = PageWriter(random: SeededRandom(seed: 0xA11CE + UInt64(seed)))
      let body = writer.page()
      let fast = Self.compare(body)
      let decodable = (try? JSONDecoder().decode(Envelope<SmsMessageList>.self, from: body)) != nil
      if writer.clean && decodable {
        clean += 1
        #expect(fast, "clean page \(seed) not read by the fast path")
      }
      if fast { answered += 1 }
    }
    #expect(clean > 300)
    #expect(answered >= clean)
  }

  @Test("random pages written by JSONSerialization")
  func serializedPages() throws {
    var random = SeededRandom(seed: 0x5E41)
    for _ in 0..<150 {
      var messages: [[String: Any]] = []
      for _ in 0..<random.int(30) {
        var message: [String: Any] = [
          "id": random.chance(80) ? Int(random.int64()) : random.text(maxLength: 4),
          "direction": random.pick(["incoming", "outgoing", ""]),
          "phone_number": random.text(maxLength: 14),
          "content": random.text(maxLength: 200),
          "timestamp": "2026-01-0\(random.int(9) + 1) 12:34:56",
          "status": random.pick(["received", "sent", "pending", "failed"]),
        ]
        message["pdu"] = random.chance(50) ? "mmfp:" + random.text(maxLength: 32) : NSNull()
        if random.chance(20) {
          message["content"] = random.pick([1.5, 42, true, NSNull()] as [Any])
        }
        if random.chance(10) { message["junk"] = RandomJSON.value(&random, depth: 2) }
        messages.append(message)
      }
      let envelope: [String: Any] = [
        "status": "ok", "message": random.text(maxLength: 10), "data": ["messages": messages],
      ]
      let options: JSONSerialization.WritingOptions = random.chance(30) ? [.prettyPrinted] : []
      let body = try JSONSerialization.data(withJSONObject: envelope, options: options)
      #expect(Self.compare(body))
    }
  }

  // MARK: - The simulator

  @Test("real pages from the simulator over HTTP: same messages, all read by the fast path")
  func simulatorPages() async throws {
    let profiles = [
      DeviceProfile(name: "sms-a", smsCount: 1_050, seed: 3),
      DeviceProfile(name: "sms-b", smsCount: 300, seed: 11),
    ]
    try await withFleet(profiles) { fleet in
      let transport = SocketTransport()
      for device in fleet.devices {
        _ = device.receiveSMS(
          from: "+8613800138000", content: "quote \" backslash \\ tab \t 😀 \u{1}")
        _ = device.receiveSMS(from: "95588", content: "【银行】您尾号1234的卡\n收入¥1,000.00\r\n余额¥2,345.67")
        var routes: [SimAdminRoute] = [
          .smsList(limit: 50, offset: 0), .smsList(limit: 1_000, offset: 0),
          .smsList(limit: 1_000, offset: 1_000),
          .smsList(limit: 7, offset: 3, direction: .outgoing),
          .smsList(limit: 100, offset: 0, direction: .incoming),
          .smsConversation(phoneNumber: "+8613800138000", limit: 50),
          .smsConversation(phoneNumber: "nobody", limit: 50),
        ]
        routes += device.messages().prefix(5).map {
          SimAdminRoute.smsConversation(phoneNumber: $0.phoneNumber, limit: 200)
        }
        for route in routes {
          let response = try await transport.send(
            try route.request(origin: device.origin), timeout: 10)
          #expect(response.status == 200)
          #expect(Self.compare(response.body), "\(route)")
        }
        let session = makeSession(device)
        let page = try await session.smsList(limit: 1_000, offset: 0)
        let raw = try await transport.send(
          try SimAdminRoute.smsList(limit: 1_000, offset: 0).request(origin: device.origin),
          timeout: 10)
        let slow = try JSONDecoder().decode(Envelope<SmsMessageList>.self, from: raw.body)
        #expect(page.map(Exact.init) == slow.data?.messages.map(Exact.init))
        #expect(page.count == min(1_000, device.messages().count))
        #expect(page.map(\.id) == device.messages().prefix(1_000).map(\.id))
      }
    }
  }

  @Test("the packed key names match what the cursor packs")
  func packedNames() {
    for field in SmsMessage.Field.allCases {
      #expect(field.packedName == JSONCursor.packed(field.name), "\(field)")
    }
  }

  @Test("the fast reader's fields are the Decodable conformance's keys, one for one")
  func fieldsAreTheCodingKeys() {
    let keys = SmsMessage.Field.allCases.compactMap {
      SmsMessage.CodingKeys(stringValue: "\($0.name)")
    }
    #expect(keys.count == SmsMessage.Field.allCases.count)
    #expect(Set(keys.map(\.stringValue)).count == keys.count)
  }
}

/// Writes random SMS pages by hand: every escape style, numbers and ids in every form, odd
/// keys, junk values, whitespace; `clean` stays true while the page is strict JSON with
/// nothing only JSONDecoder settles (so the fast path must read it).
struct PageWriter {
  var random: SeededRandom
  var clean = true
  var bytes: [UInt8] = []
  var depth = 0
  /// Whether this page's strings may hold lone surrogate escapes.
  var withLoneSurrogates = false

  init(random: SeededRandom) {
    self.random = random
  }

  mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

  mutating func space() {
    guard random.chance(4) else { return }
    for _ in 0..<random.int(3) + 1 { raw(random.pick([" ", "\n", "\t", "\r"])) }
  }

  mutating func page() -> Data {
    bytes = []
    withLoneSurrogates = random.chance(10)
    let layout = random.int(100)
    raw("{")
    space()
    if layout < 3 {
      raw(#""message":"no status""#)
    } else {
      if layout < 6 {
        raw(#""status":"#)
        raw(random.pick([#""error""#, #""ERROR""#, #""fail""#, "1", "null", #""Ok""#]))
        space()
        raw(",")
        space()
      } else {
        raw(#""status":"ok","#)
      }
      raw(#""message":"#)
      if random.chance(80) { string(random.text(maxLength: 12)) } else { scalar() }
      space()
      raw(",")
      space()
      raw(#""data":"#)
      switch random.int(100) {
      case 0: raw("null")
      case 1: raw("[]")
      // No messages array: the route's promise is broken, so the fast path steps aside.
      case 2:
        raw("{}")
        clean = false
      case 3:
        raw(#"{"messages":null}"#)
        clean = false
      case 4:
        raw(#"{"messages":{"id":1}}"#)
        clean = false
      default:
        raw("{")
        if random.chance(5) {
          key("other")
          junk()
          raw(",")
        }
        key("messages")
        messages()
        raw("}")
      }
    }
    if random.chance(5) {
      raw(",")
      key(random.pick(["status", "data", "message", "extra"]))
      junk()
    }
    space()
    raw("}")
    space()
    return Data(bytes)
  }

  mutating func messages() {
    raw("[")
    space()
    let any = random.int(60)
    let count = random.pick([0, 1, 2, 5, 17, 40, any])
    for index in 0..<count {
      if index > 0 {
        raw(",")
        space()
      }
      if random.chance(3) { junk() } else { message() }
      space()
    }
    raw("]")
  }

  /// A message: mostly as SimAdmin writes it, else shuffled, trimmed, padded or repeated.
  mutating func message() {
    let canonical = random.chance(60)
    var fields = ["id", "direction", "phone_number", "content", "timestamp", "status", "pdu"]
    if !canonical {
      fields.shuffle(using: &random)
      if random.chance(30) { fields.removeLast(random.int(3)) }
      if random.chance(20) { fields.append(random.pick(fields.isEmpty ? ["id"] : fields)) }
      if random.chance(20) { fields.insert(random.pick(["x", "ID", "extra", "pdu_"]), at: 0) }
    }
    raw("{")
    for (index, field) in fields.enumerated() {
      if index > 0 { raw(",") }
      if !canonical { space() }
      key(field, escaped: !canonical && random.chance(5))
      if !canonical { space() }
      switch field {
      case "id": idValue(plain: canonical)
      case "pdu": random.chance(40) ? raw("null") : fieldValue(plain: canonical)
      case "direction", "phone_number", "content", "timestamp", "status":
        fieldValue(plain: canonical)
      default: junk()
      }
      if !canonical { space() }
    }
    raw("}")
  }

  /// `name` as a key: a name of letters and `_` as is (or, when `escaped`, with some letters
  /// as `\u` escapes), any other text as a random string.
  mutating func key(_ name: String, escaped: Bool = false) {
    guard
      name.unicodeScalars.allSatisfy({
        $0 == "_" || $0.properties.isASCIIHexDigit || ("a"..."z").contains($0)
          || ("A"..."Z").contains($0)
      })
    else {
      string(name)
      raw(":")
      return
    }
    guard escaped else {
      raw("\"\(name)\":")
      return
    }
    raw("\"")
    for scalar in name.unicodeScalars {
      raw(random.chance(50) ? String(format: "\\u%04x", scalar.value) : String(scalar))
    }
    raw("\":")
  }

  mutating func idValue(plain: Bool) {
    if plain || random.chance(70) {
      raw(String(random.int64() & 0xFFFF_FFFF))
      return
    }
    switch random.int(4) {
    case 0: number()
    case 1:
      string(
        random.pick([
          " 12", "12abc", "+5", "-5.9", ".5", "5.", "1e5", "abc", "", "\u{A0}5", "0x10", "٣", "42",
        ]))
    case 2: raw(random.pick(["true", "false", "null", "[]", "{}", "[1]"]))
    default: number()
    }
  }

  mutating func fieldValue(plain: Bool) {
    if plain || random.chance(85) {
      string(random.text(maxLength: random.pick([4, 16, 40, 160])))
    } else {
      scalar()
    }
  }

  mutating func scalar() {
    switch random.int(4) {
    case 0: number()
    case 1: raw(random.pick(["true", "false", "null"]))
    case 2: junk()
    default: string(random.text(maxLength: 8))
    }
  }

  /// A random number, sometimes one only JSONDecoder settles (then the page is not clean).
  mutating func number() {
    var text = random.chance(30) ? "-" : ""
    switch random.int(6) {
    case 0:
      text += random.pick([
        "0", "1.0", "0.0", "1e3", "1E+2", "2.5e-3", "1e400", "5e-324", "1e-400", "100e-2",
        "9223372036854775807", "9223372036854775808", "12345678901234567890", "1.5e1",
        "9007199254740993.0", "1.7976931348623157e308", "4.9e-324", "0.1",
      ])
    default:
      text += String(random.int(9) + 1)
      for _ in 0..<random.int(20) { text += String(random.int(10)) }
      if random.chance(40) {
        text += "."
        for _ in 0...random.int(18) { text += String(random.int(10)) }
      }
      if random.chance(25) {
        text += random.pick(["e", "E", "e+", "e-", "E-"]) + String(random.int(330))
      }
    }
    if JSONNumberText.int64(text) == .undecided { clean = false }
    raw(text)
  }

  /// A value no field wants, nested a little.
  mutating func junk() {
    depth += 1
    defer { depth -= 1 }
    switch random.int(depth > 3 ? 3 : 5) {
    case 0: number()
    case 1: raw(random.pick(["true", "false", "null"]))
    case 2: string(random.text(maxLength: 10))
    case 3:
      raw("[")
      for index in 0..<random.int(4) {
        if index > 0 { raw(",") }
        space()
        junk()
      }
      raw("]")
    default:
      raw("{")
      for index in 0..<random.int(4) {
        if index > 0 { raw(",") }
        key(random.text(maxLength: 5))
        junk()
      }
      raw("}")
    }
  }

  /// `text` quoted, each scalar raw or escaped at random; now and then a lone surrogate.
  mutating func string(_ text: String) {
    raw("\"")
    for scalar in text.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0x22: raw(random.chance(80) ? "\\\"" : "\\u0022")
      case 0x5C: raw(random.chance(80) ? "\\\\" : "\\u005C")
      case 0x08: raw("\\b")
      case 0x0C: raw("\\f")
      case 0x0A: raw(random.chance(80) ? "\\n" : "\\u000a")
      case 0x0D: raw("\\r")
      case 0x09: raw("\\t")
      case 0..<0x20: raw(String(format: random.chance(50) ? "\\u%04x" : "\\u%04X", value))
      case 0x2F: raw(random.chance(50) ? "\\/" : "/")
      default:
        if random.chance(8) {
          if value > 0xFFFF {
            let offset = value - 0x10000
            raw(
              String(format: "\\u%04x\\u%04X", 0xD800 + (offset >> 10), 0xDC00 + (offset & 0x3FF)))
          } else {
            raw(String(format: "\\u%04x", value))
          }
        } else {
          raw(String(scalar))
        }
      }
    }
    if withLoneSurrogates && random.chance(3) {
      raw(random.pick(["\\ud800", "\\udfff", "\\uD83Dx", "\\uDE00\\uD83D"]))
      clean = false
    }
    raw("\"")
  }
}

extension SeededRandom: RandomNumberGenerator {}
