#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
#endif

/// A question a phone screen asks before it does something that cannot be undone: the words
/// of its confirmation dialog, with the two answers named (never picked out of a list).
public struct PhoneConfirmation: Sendable, Equatable {
  /// The question.
  public var question: String
  /// What it explains.
  public var message: String?
  /// The answer that goes ahead (drawn as destructive).
  public var confirm: String
  /// The answer that leaves everything as it is.
  public var cancel: String

  /// A question with its two answers.
  public init(_ question: String, message: String? = nil, confirm: String, cancel: String) {
    self.question = question
    self.message = message
    self.confirm = confirm
    self.cancel = cancel
  }

  /// The question as the outline says it: the confirming answer first, then the cancelling.
  public var dialog: PhoneOutline.Dialog {
    PhoneOutline.Dialog(question, message: message, buttons: [confirm, cancel])
  }
}

/// A phone screen's model that asks a ``PhoneConfirmation`` before an irreversible step; its
/// view shows the question with ``SwiftUI/View/phoneConfirmation(_:)``.
@MainActor
public protocol PhoneConfirming: AnyObject {
  /// Whether a question waits for an answer (the dialog is shown).
  var isConfirming: Bool { get }
  /// The words of the waiting question, `nil` when there is none to show.
  var question: PhoneConfirmation? { get }
  /// The person went ahead.
  func confirm() async
  /// The person cancelled, or dismissed the dialog.
  func cancelConfirmation()
}

extension PhoneConfirming {
  /// The waiting question as the outline shows it.
  public var dialog: PhoneOutline.Dialog? { question?.dialog }
}

#if os(iOS) && canImport(SwiftUI)
  extension View {
    /// Shows `model`'s waiting question as a confirmation dialog: its confirming answer
    /// destructive and run as a task, its cancelling answer (or a dismissal) cancels.
    @MainActor
    public func phoneConfirmation<Model: PhoneConfirming>(_ model: Model) -> some View {
      confirmationDialog(
        model.question?.question ?? "",
        isPresented: Binding(
          get: { model.isConfirming },
          set: { if !$0 && model.isConfirming { model.cancelConfirmation() } }),
        titleVisibility: .visible
      ) {
        if let question = model.question {
          Button(question.confirm, role: .destructive) { phoneTask { await model.confirm() } }
          Button(question.cancel, role: .cancel) { model.cancelConfirmation() }
        }
      } message: {
        if let message = model.question?.message { Text(message) }
      }
    }
  }
#endif
