#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// Release from Hub: the binding as read, what releasing does, and the confirmed
  /// "Release and remove".
  struct ReleaseScreen: View {
    let model: ReleaseModel
    @ObservedObject var changes: PhoneChanges

    init(model: ReleaseModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        if let notice = model.notice {
          PhoneNoticeView(notice).listRowBackground(Color.clear)
        }
        if let busy = model.busy {
          Label(busy, systemImage: "hourglass").listRowBackground(Color.clear)
        }
        if let failure = model.loadFailure {
          PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
        }
        Section {
          if let name = model.name { PhoneValueRow(model.text("form.name"), name) }
          if let hub = model.hubLine {
            PhoneValueRow(
              model.text("phone.release.hub"), hub, tone: model.boundURL == nil ? nil : .warning)
          }
        } footer: {
          if let explanation = model.explanation { Text(explanation) }
        }
        if model.boundURL != nil {
          Section {
            Button(model.text("action.releaseAndRemove")) { model.askRelease() }
              .buttonStyle(PhoneButtonStyle(.danger))
              .disabled(model.busy != nil)
              .listRowBackground(Color.clear)
          }
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
      .phoneConfirmation(model)
    }
  }
#endif
