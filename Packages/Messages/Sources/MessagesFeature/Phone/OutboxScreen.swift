#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// The outbox: entries with their state, why they wait and their attempts; retry and
  /// cancel by swipe or by the entry's buttons; pull to send what waits.
  struct OutboxScreen: View {
    let model: OutboxModel
    @ObservedObject var changes: PhoneChanges

    init(model: OutboxModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        if let notice = model.notice {
          PhoneNoticeView(notice).listRowBackground(Color.clear)
        }
        Button(model.text("phone.outbox.flush")) { phoneTask { await model.flush() } }
          .buttonStyle(PhoneButtonStyle(.primary))
          .disabled(model.isFlushing)
          .listRowBackground(Color.clear)
        if model.isFlushing {
          Label(model.text("phone.outbox.flushing"), systemImage: "hourglass")
            .listRowBackground(Color.clear)
        }
        if !model.isLoaded {
          ProgressView(model.context.common("phone.loading")).frame(maxWidth: .infinity)
        } else if let failure = model.loadFailure {
          PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
        } else if model.entries.isEmpty {
          PhonePlaceholder(symbol: "tray", title: model.text("phone.outbox.empty"))
        } else {
          ForEach(model.entries) { entry in
            row(entry)
          }
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
      .confirmationDialog(
        model.dialog?.title.text ?? "",
        isPresented: Binding(
          get: { model.dialog != nil },
          set: { if !$0 && model.dialog != nil { model.keep() } }),
        titleVisibility: .visible
      ) {
        if model.retryingUnknown != nil {
          Button(model.text("phone.outbox.retryUnknownConfirm")) {
            phoneTask { await model.confirmRetry() }
          }
        } else {
          Button(model.text("phone.outbox.cancelConfirm"), role: .destructive) {
            phoneTask { await model.confirmCancel() }
          }
        }
        Button(model.text("phone.outbox.keep"), role: .cancel) { model.keep() }
      } message: {
        if let message = model.dialog?.message { Text(message.text) }
      }
    }

    private func row(_ entry: OutboxEntry) -> some View {
      let badge = MessagesPhone.badge(entry.state, model.context)
      return VStack(alignment: .leading, spacing: 4) {
        HStack {
          PhoneBadge(badge.0, tone: badge.1)
          Spacer()
          if model.pending.contains(entry.id) { ProgressView() }
        }
        ForEach(model.lines(entry), id: \.self) { line in
          Text(line).font(.subheadline)
        }
        HStack(spacing: 10) {
          if model.canRetry(entry) {
            Button(model.text("action.retry")) { phoneTask { await model.askRetry(entry.id) } }
              .buttonStyle(PhoneButtonStyle(.primary))
          }
          if model.canCancel(entry) {
            Button(model.text("action.cancel")) { model.askCancel(entry.id) }
              .buttonStyle(PhoneButtonStyle(.danger))
          }
        }
      }
      .swipeActions {
        if model.canCancel(entry) {
          Button(model.text("action.cancel"), role: .destructive) { model.askCancel(entry.id) }
        }
        if model.canRetry(entry) {
          Button(model.text("action.retry")) { phoneTask { await model.askRetry(entry.id) } }
        }
      }
    }
  }
#endif
