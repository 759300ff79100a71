#if os(iOS) && canImport(SwiftUI)
  import FeatureKit
  import SwiftUI

  /// Compose: from (a picker), to, text; the outcome as it is.
  struct ComposeScreen: View {
    let model: ComposeModel
    @ObservedObject var changes: PhoneChanges

    init(model: ComposeModel) {
      self.model = model
      changes = model.changes
    }

    var body: some View {
      Form {
        Section {
          Picker(
            model.text("phone.compose.from"),
            selection: Binding(get: { model.fromID ?? "" }, set: { model.fromID = $0 })
          ) {
            ForEach(model.instances, id: \.id) { instance in
              Text(instance.name).tag(instance.id)
            }
          }
          problem("from")
          TextField(
            model.text("field.to"), text: Binding(get: { model.to }, set: { model.to = $0 })
          )
          .keyboardType(.phonePad)
          problem("to")
          TextField(
            model.text("field.text"), text: Binding(get: { model.body }, set: { model.body = $0 }),
            axis: .vertical
          )
          .lineLimit(3...8)
          problem("text")
        } footer: {
          Text(model.text("phone.compose.hint"))
        }
        if model.isSending {
          Section { Label(model.text("phone.compose.sending"), systemImage: "hourglass") }
        }
        if let outcome = model.outcome {
          Section {
            PhoneNoticeView(outcome)
            if model.isWaiting {
              Button(model.text("phone.compose.openOutbox")) { model.openOutbox() }
            }
            Button(model.context.common("phone.done")) { model.done() }
          }
        }
      }
      .phoneScreen(model.title)
      .toolbar {
        ToolbarItem(placement: .confirmationAction) {
          Button(model.text("phone.action.send")) { phoneTask { await model.send() } }
            .disabled(model.isSending)
        }
      }
    }

    @ViewBuilder
    private func problem(_ id: String) -> some View {
      if let problem = model.problems[id] {
        Text(problem).font(.footnote).foregroundColor(PhoneStyle.color("danger"))
      }
    }
  }
#endif
