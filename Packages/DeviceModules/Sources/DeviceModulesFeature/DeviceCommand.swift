import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import ViewKit

/// `msa device REF [SECTION] [send|delete] [IDS…]`: read a device's sections, or send and
/// delete its own SMS.
///
/// - `msa device REF` — the overview (every section, one line each).
/// - `msa device REF SECTION` — one section in full; unknown sections are a usage error that
///   lists the valid ones.
/// - `msa device REF --all-sections` — every section in full.
/// - `msa device REF sms send --to N (--text T | --text-stdin)`.
/// - `msa device REF sms delete (ID… | --conversation N | --all) --yes`.
enum DeviceCommand {
  static let actions = ["send", "delete"]

  static var spec: CommandSpec {
    CommandSpec(
      "device", abstract: DeviceModulesStrings.string("command.abstract"),
      discussion: DeviceModulesStrings.string("command.discussion"),
      arguments: [
        ArgumentSpec("REF", help: DeviceModulesStrings.string("argument.ref")).completing(
          .instance),
        ArgumentSpec(
          "SECTION", help: DeviceModulesStrings.string("argument.section"), optional: true
        )
        .suggesting(DeviceSection.names),
        ArgumentSpec(
          "ACTION", help: DeviceModulesStrings.string("argument.action"), optional: true),
        ArgumentSpec(
          "IDS", help: DeviceModulesStrings.string("argument.ids"), optional: true, repeating: true),
      ],
      options: [
        .flag("all-sections", help: DeviceModulesStrings.string("option.allSections")),
        .flag("show-bodies", help: DeviceModulesStrings.string("option.showBodies")),
        .option(
          "limit", valueName: "N", help: DeviceModulesStrings.string("option.limit"), default: "20"),
        .option("to", valueName: "NUMBER", help: DeviceModulesStrings.string("option.to")),
        .option("text", valueName: "TEXT", help: DeviceModulesStrings.string("option.text")),
        .flag("text-stdin", help: DeviceModulesStrings.string("option.textStdin")),
        .option(
          "conversation", valueName: "NUMBER",
          help: DeviceModulesStrings.string("option.conversation")
        )
        .completing(.peer),
        .flag("all", help: DeviceModulesStrings.string("option.all")),
        .flag("yes", help: DeviceModulesStrings.string("option.yes")),
      ])
  }

  static var command: FeatureCommand {
    FeatureCommand(spec) { invocation in try await run(invocation) }
  }

  // MARK: - Running

  static func run(_ invocation: CommandInvocation) async throws -> CommandResult {
    let parsed = invocation.parsed
    let environment = invocation.environment
    let ref = try parsed.argument("REF")
    let section = try parseSection(parsed)
    let action = try parseAction(parsed, section: section)
    let limit = try parsed.int("limit", range: 1...1000)
    if parsed.flag("all-sections"), let section {
      throw UsageError(
        .unexpectedArgument, path: parsed.path, subject: section.rawValue, value: section.rawValue)
    }
    if action != "delete", let extra = parsed.argumentList("IDS").first {
      throw UsageError(.unexpectedArgument, path: parsed.path, subject: extra, value: extra)
    }
    switch action {
    case "send":
      let request = try SmsActions.sendRequest(parsed, environment: environment)
      let access = try DeviceAccess.resolve(ref, in: environment)
      return try await SmsActions.send(request, access: access, environment: environment)
    case "delete":
      let target = try SmsActions.deleteTarget(parsed)
      let access = try DeviceAccess.resolve(ref, in: environment)
      return try await SmsActions.delete(
        target, confirmed: parsed.flag("yes"), access: access, environment: environment)
    default:
      break
    }
    let access = try DeviceAccess.resolve(ref, in: environment)
    let context = ViewContext(
      language: environment.language, now: environment.clock.now(), ref: ref)
    let showBodies = parsed.flag("show-bodies")
    if let section {
      let report = await access.report(
        [section], environment: environment, smsLimit: limit, showBodies: showBodies)
      let state = report.sections.first ?? .loading(section)
      return CommandResult(
        view: DeviceViews.sectionScreen(state, instance: report.instance, context),
        payload: report, exitCode: report.hasFailures ? .failure : .success)
    }
    let report = await access.report(
      DeviceSection.allCases, environment: environment, smsLimit: limit, showBodies: showBodies)
    let view =
      parsed.flag("all-sections")
      ? DeviceViews.allSections(report, context) : DeviceViews.overview(report, context)
    return CommandResult(
      view: view, payload: report, exitCode: report.hasFailures ? .failure : .success)
  }

  static func parseSection(_ parsed: ParsedCommand) throws(UsageError) -> DeviceSection? {
    guard let text = parsed.optionalArgument("SECTION") else { return nil }
    guard let section = DeviceSection(rawValue: text.lowercased()) else {
      throw UsageError(
        .invalidValue, path: parsed.path, subject: "<section>", value: text,
        problem: .notAllowed(allowed: DeviceSection.names),
        suggestion: closest(to: text.lowercased(), in: DeviceSection.names))
    }
    return section
  }

  static func parseAction(_ parsed: ParsedCommand, section: DeviceSection?) throws(UsageError)
    -> String?
  {
    guard let text = parsed.optionalArgument("ACTION") else { return nil }
    guard section == .sms, actions.contains(text) else {
      if section != .sms {
        throw UsageError(.unexpectedArgument, path: parsed.path, subject: text, value: text)
      }
      throw UsageError(
        .invalidValue, path: parsed.path, subject: "<action>", value: text,
        problem: .notAllowed(allowed: actions), suggestion: closest(to: text, in: actions))
    }
    return text
  }

  /// The candidate closest to `word` by edit distance, if at most 2 edits away.
  static func closest(to word: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, distance(Array(word), Array($0))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
    return best.0
  }

  /// Levenshtein distance.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
