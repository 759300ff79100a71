#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// The add and edit form.
  struct InstanceFormScreen: View {
    let model: InstanceFormModel
    @ObservedObject var changes: PhoneChanges

    init(model: InstanceFormModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      Form {
        if let failure = model.loadFailure {
          PhoneNoticeView(PhoneNotice(failure, tone: .danger))
        }
        Section {
          field("name", model.text("form.name"), text: binding(\.name), keyboard: .default)
          field("url", model.text("form.url"), text: binding(\.url), keyboard: .URL)
          field("tags", model.text("phone.form.tags"), text: binding(\.tags), keyboard: .default)
          Picker(model.text("form.group"), selection: binding(\.group)) {
            ForEach(model.groupChoices, id: \.choice) { choice in
              Text(choice.title).tag(choice.choice)
            }
          }
          if model.group == .new {
            field(
              "group", model.text("phone.form.newGroupName"), text: binding(\.newGroup),
              keyboard: .default)
          } else if let problem = model.problem("group") {
            Text(problem).font(.footnote).foregroundColor(PhoneStyle.color("danger"))
          }
        } footer: {
          Text(model.text("phone.form.hint"))
        }
        Section {
          SecureField(model.passwordLabel, text: binding(\.password))
            .textContentType(.password)
          if model.editing?.hasPassword == true {
            Toggle(model.text("phone.form.removePassword"), isOn: binding(\.removePassword))
          }
        }
        if let progress = model.progressText {
          Section { Label(progress, systemImage: "hourglass") }
        }
        if let failure = model.failure {
          Section { PhoneNoticeView(PhoneNotice(failure, tone: .danger)) }
        }
      }
      .phoneScreen(model.title)
      .disabled(model.isBusy)
      .toolbar {
        ToolbarItem(placement: .confirmationAction) {
          Button(model.context.common("phone.save")) { phoneTask { await model.save() } }
            .disabled(model.isBusy || !model.isLoaded)
        }
      }
    }

    private func binding<Value>(_ path: ReferenceWritableKeyPath<InstanceFormModel, Value>)
      -> Binding<Value>
    {
      Binding(get: { model[keyPath: path] }, set: { model[keyPath: path] = $0 })
    }

    @ViewBuilder
    private func field(
      _ id: String, _ label: String, text: Binding<String>, keyboard: UIKeyboardType
    ) -> some View {
      VStack(alignment: .leading, spacing: 4) {
        TextField(label, text: text)
          .keyboardType(keyboard)
          .textInputAutocapitalization(.never)
          .autocorrectionDisabled()
        if let problem = model.problem(id) {
          Text(problem).font(.footnote).foregroundColor(PhoneStyle.color("danger"))
        }
      }
    }
  }
#endif
