import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import SimAdminClient
import ViewKit

/// Sending and deleting this device's own SMS, straight through its session.
enum SmsActions {
  /// A validated send: to whom and what.
  struct SendRequest: Sendable {
    let to: String
    let text: String
  }

  /// Which messages a delete affects.
  enum DeleteTarget: Sendable, Equatable {
    case ids([Int64])
    case conversation(String)
    case all

    var mode: String {
      switch self {
      case .ids: "ids"
      case .conversation: "conversation"
      case .all: "all"
      }
    }
  }

  /// `{instance, to, path}`.
  struct SendPayload: Encodable, Sendable {
    let instance: DeviceTarget
    let to: String
    let path: String
  }

  /// `{instance, mode, target, deleted}`.
  struct DeletePayload: Encodable, Sendable {
    let instance: DeviceTarget
    let mode: String
    let target: String
    let deleted: Int64
  }

  // MARK: - Validation (before anything is sent)

  static func sendRequest(_ parsed: ParsedCommand, environment: AppEnvironment) throws
    -> SendRequest
  {
    let given = (parsed.optionalString("to") ?? "").trimmingCharacters(in: .whitespaces)
    guard !given.isEmpty else {
      throw UsageError(.missingOption, path: parsed.path, subject: "--to <NUMBER>")
    }
    // The same rule as `msa messages send` (``SmsRecipient``): a malformed number is a
    // malformed value of the command line (exit 64); the normalized number is sent.
    let to: String
    do { to = try SmsRecipient.normalized(given) } catch {
      switch error {
      case .empty, .digitCount:
        let count = if case .digitCount(let count) = error { count } else { 0 }
        throw UsageFailure(
          DeviceFailure.message(
            key: "sms.send.numberDigits", arguments: ["number": given, "count": String(count)]))
      case .invalidCharacter(let character):
        throw UsageFailure(
          DeviceFailure.message(
            key: "sms.send.numberCharacter",
            arguments: ["number": given, "character": String(character)]))
      }
    }
    let inline = parsed.optionalString("text")
    let fromStdin = parsed.flag("text-stdin")
    if inline != nil && fromStdin {
      throw UsageFailure(DeviceFailure.message(key: "sms.send.bothTexts", arguments: [:]))
    }
    var text = inline ?? ""
    if fromStdin {
      text = (environment.streams.readInput() ?? "")
      while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
    }
    guard inline != nil || fromStdin else {
      throw UsageError(.missingOption, path: parsed.path, subject: "--text <TEXT>")
    }
    guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      throw DeviceFailure.message(key: "sms.send.emptyText", arguments: [:])
    }
    return SendRequest(to: to, text: text)
  }

  static func deleteTarget(_ parsed: ParsedCommand) throws -> DeleteTarget {
    let idTexts = parsed.argumentList("IDS")
    let conversation = parsed.optionalString("conversation")
    let all = parsed.flag("all")
    let chosen = [!idTexts.isEmpty, conversation != nil, all].filter { $0 }.count
    guard chosen == 1 else {
      throw DeviceFailure.message(
        key: chosen == 0 ? "sms.delete.noTarget" : "sms.delete.manyTargets", arguments: [:])
    }
    if all { return .all }
    if let conversation {
      let number = conversation.trimmingCharacters(in: .whitespaces)
      guard !number.isEmpty else {
        throw DeviceFailure.message(key: "sms.delete.noTarget", arguments: [:])
      }
      return .conversation(number)
    }
    var ids: [Int64] = []
    for text in idTexts {
      guard let id = Int64(text), id > 0 else {
        throw UsageError(
          .invalidValue, path: parsed.path, subject: "<ids>", value: text, problem: .notAnInteger)
      }
      if !ids.contains(id) { ids.append(id) }
    }
    return .ids(ids)
  }

  // MARK: - Running

  static func send(_ request: SendRequest, access: DeviceAccess, environment: AppEnvironment)
    async throws -> CommandResult
  {
    let result: SendResult
    do {
      // The device answers when its modem has sent it: wait as long as a send may take.
      result = try await access.session.smsSend(
        phoneNumber: request.to, content: request.text, timeout: SendFailureMeaning.defaultWait)
    } catch {
      // No answer is not a failure: the message may have gone out (never "failed").
      if SendFailureMeaning(error.error) == .unknown {
        throw DeviceFailure.message(
          key: "sms.sendUnknown",
          arguments: [
            "instance": access.instance.name, "to": request.to,
            "reason": error.error.localizedMessage(environment.language),
          ])
      }
      throw DeviceFailure.upstream(error)
    }
    let text = DeviceModulesStrings.text(
      "sms.sent", environment.language, ["to": request.to, "instance": access.instance.name])
    return CommandResult(
      view: .banner(Banner(text, tone: .success)),
      payload: SendPayload(instance: access.target, to: request.to, path: result.path))
  }

  static func delete(
    _ target: DeleteTarget, confirmed: Bool, access: DeviceAccess, environment: AppEnvironment
  ) async throws -> CommandResult {
    let language = environment.language
    let session = access.session
    let description = describe(target, language)
    do {
      // The rows this run deletes, listed now: a conversation or everything is deleted by id,
      // never with SimAdmin's clear or delete-by-number, which act on the whole table at the
      // moment they run (a message that arrives meanwhile would go unseen). The count said
      // is the count deleted, at most.
      let rows: [Int64]
      switch target {
      case .ids(let ids): rows = ids
      case .conversation(let number):
        rows = try await session.smsConversation(phoneNumber: number, limit: 100_000).map(\.id)
      case .all: rows = try await allRowIDs(session)
      }
      let count = Int64(rows.count)
      guard count > 0 else {
        let text = DeviceModulesStrings.text(
          "sms.delete.nothing", language,
          ["target": description, "instance": access.instance.name])
        return CommandResult(
          view: .banner(Banner(text, tone: .info)),
          payload: DeletePayload(
            instance: access.target, mode: target.mode, target: description, deleted: 0))
      }
      guard confirmed else {
        throw DeviceFailure.message(
          key: "sms.delete.needsYes",
          arguments: [
            "count": String(count), "target": description, "instance": access.instance.name,
          ])
      }
      var deleted: Int64 = 0
      if rows.count == 1 {
        deleted = try await session.smsDeleteMessage(id: rows[0]).deleted
      } else {
        var start = 0
        while start < rows.count {
          let chunk = Array(rows[start..<min(rows.count, start + deleteChunk)])
          deleted += try await session.smsBatchDelete(ids: chunk).deleted
          start += deleteChunk
        }
      }
      let text = DeviceModulesStrings.text(
        "sms.deleted", language,
        ["count": String(deleted), "instance": access.instance.name])
      return CommandResult(
        view: .banner(Banner(text, tone: .success)),
        payload: DeletePayload(
          instance: access.target, mode: target.mode, target: description, deleted: deleted))
    } catch let failure as SimAdminFailure {
      throw DeviceFailure.upstream(failure)
    }
  }

  /// Ids per `POST /api/sms/batch-delete`.
  static let deleteChunk = 500

  /// Every row id the device lists now, page by page (newest first; a row seen twice as new
  /// messages shift the offsets counts once). The pages are bounded by the device's own total,
  /// so a device that ignores the offset cannot keep this going.
  static func allRowIDs(_ session: SimAdminSession) async throws(SimAdminFailure) -> [Int64] {
    let total = max(0, try await session.smsStats().total)
    let pageSize = 1000
    let pages = Int(min(total, 10_000_000)) / pageSize + 2
    var ids: [Int64] = []
    var seen = Set<Int64>()
    for page in 0..<pages {
      let list = try await session.smsPage(limit: pageSize, offset: page * pageSize)
      for message in list.messages where seen.insert(message.id).inserted {
        ids.append(message.id)
      }
      if list.messages.count + list.unreadable < pageSize { break }
    }
    return ids
  }

  static func describe(_ target: DeleteTarget, _ language: AppLanguage) -> String {
    let catalogue = DeviceModulesStrings.catalogue
    switch target {
    case .ids(let ids):
      return catalogue.text(
        "sms.target.ids", language, ["ids": ids.map(String.init).joined(separator: ", ")])
    case .conversation(let number):
      return catalogue.text("sms.target.conversation", language, ["number": number])
    case .all:
      return catalogue.text("sms.target.all", language)
    }
  }
}
