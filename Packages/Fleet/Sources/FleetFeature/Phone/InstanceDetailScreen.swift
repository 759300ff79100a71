#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// One node: its sections as cards of label: value rows and its actions.
  struct InstanceDetailScreen: View {
    let model: InstanceDetailModel
    @ObservedObject var changes: PhoneChanges

    init(model: InstanceDetailModel) {
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
        if !model.isLoaded {
          ProgressView(model.context.common("phone.loading")).frame(maxWidth: .infinity)
        } else if let failure = model.loadFailure {
          PhonePlaceholder(symbol: "exclamationmark.triangle", title: failure)
        } else {
          ForEach(Array(model.sections.enumerated()), id: \.offset) { _, section in
            Section(section.title) {
              ForEach(Array(section.rows.enumerated()), id: \.offset) { _, row in
                PhoneValueRow(row.label, row.value, tone: row.tone)
              }
            }
          }
          Section { actions }
        }
      }
      .listStyle(.insetGrouped)
      .phoneScreen(model.title)
      .refreshable { await model.refresh() }
      .phoneConfirmation(model)
      .sheet(
        isPresented: Binding(
          get: { model.isAskingPassword }, set: { if !$0 { model.cancelLogin() } })
      ) {
        loginSheet
      }
    }

    private var actions: some View {
      VStack(spacing: 10) {
        Button(model.text("action.test")) { phoneTask { await model.test() } }
          .buttonStyle(PhoneButtonStyle(.primary))
        HStack(spacing: 10) {
          Button(model.text("action.login")) { model.askLogin() }.buttonStyle(PhoneButtonStyle())
          Button(model.text("action.logout")) { phoneTask { await model.logout() } }
            .buttonStyle(PhoneButtonStyle())
        }
        Button(model.text("action.edit")) { model.edit() }.buttonStyle(PhoneButtonStyle())
        if model.canOpenSections {
          Button(model.text("action.sections")) { model.openSections() }
            .buttonStyle(PhoneButtonStyle())
        }
        Button(model.text("action.release")) { model.openRelease() }
          .buttonStyle(PhoneButtonStyle())
        Button(model.text("action.remove")) { model.askRemove() }
          .buttonStyle(PhoneButtonStyle(.danger))
      }
      .disabled(model.busy != nil)
      .listRowBackground(Color.clear)
    }

    private var loginSheet: some View {
      NavigationStack {
        Form {
          Section {
            SecureField(
              model.text("phone.login.password"),
              text: Binding(get: { model.password }, set: { model.password = $0 })
            )
            .textContentType(.password)
            .submitLabel(.go)
            .onSubmit { phoneTask { await model.login() } }
          } footer: {
            Text(
              model.text(
                model.row?.hasPassword == true ? "phone.login.messageStored" : "phone.login.message"
              ))
          }
          if let problem = model.loginProblem {
            PhoneNoticeView(PhoneNotice(problem, tone: .danger))
          }
          if let busy = model.busy {
            Label(busy, systemImage: "hourglass")
          }
        }
        .phoneScreen(model.text("phone.login.title", ["name": model.row?.name ?? ""]))
        .toolbar {
          ToolbarItem(placement: .cancellationAction) {
            Button(model.context.common("phone.cancel")) { model.cancelLogin() }
          }
          ToolbarItem(placement: .confirmationAction) {
            Button(model.text("action.login")) { phoneTask { await model.login() } }
              .disabled(model.busy != nil)
          }
        }
      }
    }
  }
#endif
