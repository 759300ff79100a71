import Essentials
import FeatureKit
import Foundation
import ViewKit

/// The app's own sentences built from parts: target lists, batch summaries, problems that
/// speak of form fields.
public enum AppText {
  /// How many targets a list names before "and K more".
  static let namedTargets = 3

  /// `names` in full when there are at most four, else the first three and "and K more".
  static func list(_ names: [String], _ context: AppContext, clauses: Bool = false)
    -> String
  {
    // Failures hold commas and colons of their own: they are set apart by semicolons.
    let separator =
      clauses
      ? (context.language == .simplifiedChinese ? "；" : "; ")
      : (context.language == .simplifiedChinese ? "、" : ", ")
    guard names.count > namedTargets + 1 else { return names.joined(separator: separator) }
    return context.string(
      "list.more",
      [
        "names": names.prefix(namedTargets).joined(separator: separator),
        "count": "\(names.count - namedTargets)",
      ])
  }

  /// A message made fit to stand inside a sentence: one line, without its closing full stop
  /// (so a Chinese message in brackets does not end in "。）。").
  public static func clause(_ message: String) -> String {
    var text = message.split(whereSeparator: \.isNewline).joined(separator: " ")
      .trimmingCharacters(in: .whitespaces)
    while let last = text.last, "。．.！!".contains(last) { text.removeLast() }
    return text
  }

  /// What a finished batch leaves on its screen: "3 tested · 1 failed (Wuhan Hanging: timed
  /// out)", "Done: Send", or the one failure's message.
  static func summary(_ batch: Batch, _ context: AppContext) -> ScreenResult {
    let count = "\(batch.total)"
    let done =
      batch.outcome.map { StringCatalogue.fill($0, ["count": count]) }
      ?? (batch.total == 1
        ? context.string("notice.done", ["action": batch.title])
        : context.string("notice.done-count", ["action": batch.title, "count": count]))
    guard !batch.failures.isEmpty else { return ScreenResult(done) }
    if batch.total == 1 {
      return ScreenResult(
        context.string(
          "notice.failed-because", ["action": batch.title, "reason": batch.failures[0]]),
        isFailure: true)
    }
    let failed = context.string(
      "notice.failed-count",
      [
        "count": "\(batch.failures.count)",
        "targets": list(batch.failures, context, clauses: true),
      ])
    return ScreenResult(done + " · " + failed, isFailure: true)
  }

  /// `message` with every `--option` of the form's fields named by the field's label instead,
  /// e.g. "“To” is not a phone number" rather than "--to <NUMBER> is not …".
  static func speakOfFields(
    _ message: String, inputs: [RouteAction.Input], labels: [String]
  ) -> String {
    var text = clause(message)
    for (input, label) in zip(inputs, labels) where !input.isPositional {
      let name = NSRegularExpression.escapedPattern(for: input.option)
      text = text.replacingOccurrences(
        of: "['‘“]?--\(name)(?![\\w-])( <[^>]*>)?['’”]?", with: "“\(clause(label))”",
        options: .regularExpression)
    }
    return text
  }
}

extension String {
  var nonEmpty: String? { isEmpty ? nil : self }
}
