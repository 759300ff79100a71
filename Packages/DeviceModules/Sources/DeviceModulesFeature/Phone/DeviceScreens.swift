#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// The overview: a card per section; a tap opens the section.
  struct DeviceOverviewScreen: View {
    let model: DeviceOverviewModel
    @ObservedObject var changes: PhoneChanges

    init(model: DeviceOverviewModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        if let failure = model.loadFailure {
          PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
        }
        if let target = model.target {
          Text(target.origin).font(.footnote).foregroundColor(PhoneStyle.color("muted"))
            .listRowBackground(Color.clear)
        }
        ForEach(model.sections, id: \.section) { state in
          Button {
            model.open(state.section)
          } label: {
            VStack(alignment: .leading, spacing: 4) {
              HStack {
                Text(state.section.title(model.context.language)).font(.headline)
                  .foregroundColor(PhoneStyle.color("ink"))
                Spacer()
                if state.status == .loading {
                  ProgressView()
                } else if let badge = model.badge(state) {
                  PhoneBadge(badge, tone: DevicePhone.tone(state.status))
                }
              }
              Text(model.summary(state)).font(.subheadline)
                .foregroundColor(PhoneStyle.color("muted"))
              if let fetched = model.fetched(state) {
                Text(fetched).font(.caption).foregroundColor(PhoneStyle.color("muted"))
              }
            }
          }
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
    }
  }

  /// One section: its cards of label: value rows, or its state with a retry.
  struct DeviceSectionScreen: View {
    let model: DeviceSectionModel
    @ObservedObject var changes: PhoneChanges

    init(model: DeviceSectionModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        if let failure = model.loadFailure {
          PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
        }
        if let lines = model.stateLines {
          if model.state.status == .loading {
            ProgressView(lines.title).frame(maxWidth: .infinity)
          } else {
            PhonePlaceholder(
              symbol: model.state.status.isFailure ? "exclamationmark.triangle" : "tray",
              title: lines.title, message: lines.message,
              action: model.state.status.isFailure
                ? (model.context.common("phone.retry"), { phoneTask { await model.refresh() } })
                : nil)
          }
        }
        ForEach(Array(model.cards.enumerated()), id: \.offset) { _, card in
          Section(card.title ?? "") {
            ForEach(Array(card.rows.enumerated()), id: \.offset) { _, row in
              if row.label.isEmpty {
                Text(row.value).font(.footnote)
                  .foregroundColor(row.tone.map(PhoneStyle.color) ?? PhoneStyle.color("muted"))
              } else {
                PhoneValueRow(row.label, row.value, tone: row.tone)
              }
            }
          }
        }
        if let fetched = model.fetched {
          Text(fetched).font(.caption).foregroundColor(PhoneStyle.color("muted"))
            .listRowBackground(Color.clear)
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
    }
  }

  /// The device's own SMS: masked until revealed, send and delete on the device.
  struct DeviceSMSScreen: View {
    let model: DeviceSMSModel
    @ObservedObject var changes: PhoneChanges

    init(model: DeviceSMSModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      List {
        if let notice = model.notice { PhoneNoticeView(notice).listRowBackground(Color.clear) }
        if model.status == .loading {
          ProgressView(model.context.common("phone.loading")).frame(maxWidth: .infinity)
        } else if model.status != .loaded {
          let words = DevicePhone.stateText(model.status, model.context)
          PhonePlaceholder(symbol: "tray", title: words.0, message: words.1)
        }
        ForEach(model.messages) { message in
          VStack(alignment: .leading, spacing: 4) {
            Text(message.phoneNumber).font(.headline)
            Text(model.body(message))
              .onTapGesture { model.toggleReveal(message.id) }
            Text(model.meta(message)).font(.footnote).foregroundColor(PhoneStyle.color("muted"))
          }
          .swipeActions {
            Button(model.text("action.delete"), role: .destructive) { model.askDelete(message.id) }
            Button(
              model.context.common(
                model.revealed.contains(message.id) ? "phone.hide" : "phone.show")
            ) {
              model.toggleReveal(message.id)
            }
          }
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
      .toolbar {
        ToolbarItem(placement: .navigationBarTrailing) {
          Button {
            model.compose()
          } label: {
            Label(model.text("action.send"), systemImage: "square.and.pencil")
          }
        }
      }
      .sheet(
        isPresented: Binding(get: { model.isComposing }, set: { if !$0 { model.cancelCompose() } })
      ) {
        NavigationStack {
          Form {
            TextField(
              model.text("input.to"), text: Binding(get: { model.to }, set: { model.to = $0 })
            )
            .keyboardType(.phonePad)
            TextField(
              model.text("input.text"),
              text: Binding(get: { model.body }, set: { model.body = $0 }),
              axis: .vertical
            ).lineLimit(3...8)
            if let notice = model.notice, notice.tone == .danger { PhoneNoticeView(notice) }
          }
          .phoneScreen(model.text("action.send"))
          .toolbar {
            ToolbarItem(placement: .cancellationAction) {
              Button(model.context.common("phone.cancel")) { model.cancelCompose() }
            }
            ToolbarItem(placement: .confirmationAction) {
              Button(model.text("action.send")) { phoneTask { await model.send() } }
                .disabled(model.isBusy)
            }
          }
        }
      }
      .confirmationDialog(
        model.dialog?.title.text ?? "",
        isPresented: Binding(
          get: { model.deleting != nil }, set: { if !$0 && model.deleting != nil { model.keep() } }),
        titleVisibility: .visible
      ) {
        Button(model.text("phone.sms.deleteConfirm"), role: .destructive) {
          phoneTask { await model.confirmDelete() }
        }
        Button(model.context.common("phone.cancel"), role: .cancel) { model.keep() }
      } message: {
        if let message = model.dialog?.message { Text(message.text) }
      }
    }
  }
#endif
