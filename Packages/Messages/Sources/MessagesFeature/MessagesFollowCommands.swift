import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore
import ViewKit

/// `msa code` and `msa messages watch`: the everyday use of the archive's verification codes.
extension MessagesCommands {
  /// What `msa code --json` prints.
  struct CodePayload: Encodable, Sendable {
    var code: String
    var messageID: Int64
    var instanceID: String
    var instanceName: String
    var simNumber: String?
    var sender: String
    var at: Date
    var ageSeconds: Int
    /// When msa first archived it: what `--since` and `--wait` judge.
    var firstSeenAt: Date
    /// The device's own timestamp, as written.
    var deviceTimestamp: String
    /// The device's timestamp named no believable time: `at` is when msa archived it.
    var timeApproximate: Bool
  }

  /// Orders codes by when they arrived as far as msa can tell: first archived, then the
  /// device's time (when it names one), then the archive's order.
  static func arrivedBefore(_ a: ArchivedMessage, _ b: ArchivedMessage) -> Bool {
    (a.syncedAt, a.deviceAt, a.id) < (b.syncedAt, b.deviceAt, b.id)
  }

  /// The codes msa first archived since `start` that arrived then as far as msa can tell
  /// (``ArchivedMessage/isRecent(since:)``), newest arrival first (``arrivedBefore(_:_:)``):
  /// what `msa code` answers with (the first) and what the console's message list puts on
  /// top. `filter` narrows them (instances, sender); direction and code are set here.
  static func recentCodes(
    _ archive: MessageArchive, filter: MessageFilter = MessageFilter(), since start: Date
  ) throws -> [ArchivedMessage] {
    var filter = filter
    filter.direction = "incoming"
    filter.hasCode = true
    filter.syncedSince = start
    return try archive.list(filter: filter, limit: 10_000)
      .filter { $0.isRecent(since: start) }
      .sorted { arrivedBefore($1, $0) }
  }

  /// How far back `msa code` looks by default, and the console's message list puts codes on
  /// top: ten minutes.
  static let recentCodeWindow: TimeInterval = 600

  /// How often `msa code --wait` syncs.
  static let codeWaitInterval: TimeInterval = 3

  static var code: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "code", abstract: MessagesStrings.string("help.code"),
        options: [
          .option("from", valueName: "SENDER", help: MessagesStrings.string("help.codeFrom"))
            .completing(.peer),
          .option(
            "instance", valueName: "REF", help: MessagesStrings.string("help.codeInstance"),
            repeating: true
          )
          .completing(.instance),
          .option(
            "since", valueName: "DURATION", help: MessagesStrings.string("help.codeSince"),
            default: "10m"
          ).takingDuration(),
          .option("wait", valueName: "DURATION", help: MessagesStrings.string("help.codeWait"))
            .takingDuration(),
        ])
    ) { invocation in
      let environment = invocation.environment
      let parsed = invocation.parsed
      let since = try duration(parsed, "since") ?? recentCodeWindow
      let wait = try duration(parsed, "wait")
      let store = try store(environment)
      let (instances, chosen) = try followedInstances(parsed, store: store)
      let archive = MessageArchive(store: store)
      try archive.refreshCodes()
      var filter = MessageFilter(direction: "incoming", hasCode: true)
      filter.instanceIDs = chosen
      filter.peerKey = parsed.optionalString("from").map(PeerNumber.key)
      let follower = MessageFollower(
        archive: archive, connector: try connector(environment), instances: instances,
        environment)
      let found: ArchivedMessage?
      var stopped = false
      let matches = filter
      if let wait {
        let deadline = ContinuousClock.now + .milliseconds(Int64(wait * 1000))
        found = await Interruption.cancellingOnInterrupt {
          var last = follower.baseline
          while !Task.isCancelled {
            // The deadline holds whatever a device does: a round still reading when it comes
            // is cancelled, and what the devices that finished archived still counts.
            let after = last
            let round = await MessageFollower.until(deadline) {
              await follower.round(after: after, filter: matches)
            }
            last = round.last
            if follower.localFailure != nil { return nil }
            if let message = round.messages.max(by: Self.arrivedBefore) {
              return message
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            let seconds =
              Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            guard await MessageFollower.pause(min(codeWaitInterval, seconds)) else { return nil }
          }
          return nil
        }
        if let failure = follower.localFailure { throw failure }
        // Ctrl-C before the time ran out.
        stopped = found == nil && ContinuousClock.now < deadline
      } else {
        _ = await follower.round(after: follower.baseline, filter: matches)
        if let failure = follower.localFailure { throw failure }
        // Judged by when msa first archived each message (``ArchivedMessage/isRecent``).
        let start = environment.clock.now().addingTimeInterval(-since)
        found = try recentCodes(archive, filter: filter, since: start).first
      }
      let language = environment.language
      guard let message = found, let code = message.code else {
        if stopped { throw MessagesFailure("error.noCodeStopped") }
        if let wait {
          throw MessagesFailure(
            "error.noCodeWaited", ["wait": parsed.optionalString("wait") ?? String(wait)])
        }
        throw MessagesFailure("error.noCode", ["since": try parsed.string("since")])
      }
      // Its age: since msa first archived it, when a later sync did (it arrived between two
      // syncs); a first sync's message by the device's time when it names one (and not after
      // it was archived). The device's own time is shown beside it either way.
      let arrived =
        message.seenAfter == nil && !message.timeApproximate
        ? min(message.deviceAt, message.syncedAt) : message.syncedAt
      let age = max(0, Int(environment.clock.now().timeIntervalSince(arrived)))
      let payload = CodePayload(
        code: code, messageID: message.id, instanceID: message.instanceID,
        instanceName: message.instanceName, simNumber: message.simNumber, sender: message.peer,
        at: message.deviceAt, ageSeconds: age, firstSeenAt: message.syncedAt,
        deviceTimestamp: message.deviceTimestamp, timeApproximate: message.timeApproximate)
      if environment.output.json {
        return CommandResult(view: .stack([]), payload: payload)
      }
      // Only the code on standard output, so `code=$(msa code --wait 2m)` works.
      environment.streams.writeOutput(code + "\n")
      // The sender and the device's time are the device's words: one line, controls shown.
      environment.streams.writeError(
        UntrustedText.neutralised(
          MessagesStrings.text(
            "code.details", language,
            [
              "instance": CodeText.instanceLabel(message), "sender": message.peer,
              "age": ageText(age, language),
              "device": CodeText.deviceTime(
                message, MessagesDisplay.resolve(environment), language),
            ])) + "\n")
      return .written()
    }
  }

  /// A duration option's value (`90`, `90s`, `10m`, `2h`); a malformed one is a usage error
  /// naming the option.
  static func duration(_ parsed: ParsedCommand, _ option: String) throws -> TimeInterval? {
    guard let value = parsed.optionalString(option) else { return nil }
    guard let seconds = TimeArgument.seconds(value), seconds > 0 else {
      throw UsageFailure(
        MessagesFailure("error.badOptionDuration", ["option": "--" + option, "value": value]))
    }
    return seconds
  }

  /// `5 s ago`, `3 min ago`, `2 h ago`.
  static func ageText(_ seconds: Int, _ language: AppLanguage) -> String {
    if seconds < 60 { return MessagesStrings.text("age.seconds", language, ["n": String(seconds)]) }
    if seconds < 3600 {
      return MessagesStrings.text("age.minutes", language, ["n": String(seconds / 60)])
    }
    return MessagesStrings.text("age.hours", language, ["n": String(seconds / 3600)])
  }

  /// The instances a follow command syncs (`--instance REF…`, or all) and the ids it filters
  /// by (empty: every instance).
  static func followedInstances(_ parsed: ParsedCommand, store: Store) throws -> (
    [Instance], [String]
  ) {
    let registry = InstanceRepository(store: store)
    let refs = parsed.strings("instance")
    let instances = try refs.isEmpty ? registry.list() : refs.map(registry.resolve(reference:))
    guard !instances.isEmpty else { throw MessagesFailure("error.noInstances") }
    return (instances, refs.isEmpty ? [] : instances.map(\.id))
  }

  // MARK: - Watch

  static var watch: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "watch", abstract: MessagesStrings.string("help.watch"),
        options: [
          .option(
            "instance", valueName: "REF", help: MessagesStrings.string("help.codeInstance"),
            repeating: true
          )
          .completing(.instance),
          .option(
            "interval", valueName: "DURATION", help: MessagesStrings.string("help.interval"),
            default: "5s"
          ).takingDuration(),
          .flag("show-bodies", help: MessagesStrings.string("help.showBodies")),
        ])
    ) { invocation in
      let environment = invocation.environment
      let parsed = invocation.parsed
      let interval = try duration(parsed, "interval") ?? 5
      let store = try store(environment)
      let (instances, chosen) = try followedInstances(parsed, store: store)
      let archive = MessageArchive(store: store)
      try archive.refreshCodes()
      var chosenOnly = MessageFilter()
      chosenOnly.instanceIDs = chosen
      let filter = chosenOnly
      let follower = MessageFollower(
        archive: archive, connector: try connector(environment), instances: instances,
        environment)
      let show = parsed.flag("show-bodies")
      let language = environment.language
      let display = MessagesDisplay.resolve(environment)
      let intervalText = try parsed.string("interval")
      environment.streams.writeError(
        MessagesStrings.text(
          "watch.started", language,
          ["count": String(instances.count), "interval": intervalText]) + "\n")
      MessagesLog.watchStarted(instances: instances.count, interval: intervalText, environment)
      let (rounds, received) = await Interruption.cancellingOnInterrupt {
        var last = follower.baseline
        var rounds = 0
        var received = 0
        while !Task.isCancelled {
          let round = await follower.round(after: last, filter: filter)
          if follower.localFailure != nil { break }
          last = round.last
          rounds += 1
          let fresh = round.messages
          for message in fresh {
            environment.streams.writeOutput(
              environment.output.json
                ? jsonLine(message, showBody: show)
                : watchLine(message, showBody: show, display, language))
          }
          if !fresh.isEmpty {
            received += fresh.count
            MessagesLog.watchReceived(fresh, environment)
          }
          guard await MessageFollower.pause(interval) else { break }
        }
        return (rounds, received)
      }
      if let failure = follower.localFailure { throw failure }
      MessagesLog.watchEnded(rounds: rounds, received: received, environment)
      environment.streams.writeError(
        MessagesStrings.text("watch.ended", language, ["count": String(received)]) + "\n")
      return .written()
    }
  }

  /// One message as a JSON Lines object: the list's fields with its code in full.
  static func jsonLine(_ message: ArchivedMessage, showBody: Bool) -> String {
    var row = ListedMessage(message, showBody: showBody)
    row.code = message.code
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    guard let data = try? encoder.encode(row) else { return "" }
    return UntrustedText.escapingJSON(String(decoding: data, as: UTF8.self)) + "\n"
  }

  /// One message as one line of text: time, direction, sender, instance and SIM number, the
  /// body (masked unless asked) and the code.
  static func watchLine(
    _ message: ArchivedMessage, showBody: Bool, _ display: MessagesDisplay,
    _ language: AppLanguage
  ) -> String {
    let body = showBody ? MessagesViews.flat(message.body) : Redactor.maskBody(message.body)
    var line = MessagesStrings.text(
      message.isIncoming ? "watch.lineIn" : "watch.lineOut", language,
      [
        "time": CodeText.time(message, display), "peer": message.peer,
        "instance": CodeText.instanceLabel(message), "body": body,
      ])
    if let code = message.code {
      line += MessagesStrings.text("watch.code", language, ["code": code])
    }
    return UntrustedText.neutralised(line, lineFeeds: .symbol) + "\n"
  }
}
