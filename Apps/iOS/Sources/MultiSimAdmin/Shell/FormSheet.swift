#if canImport(SwiftUI) && os(iOS)
  import AppCore
  import SwiftUI

  /// An action's form: every field of the core's form, secret ones as secure fields, the
  /// problem the core found, Cancel and Run.
  @MainActor
  struct FormSheet: View {
    let form: FormState
    @ObservedObject var model: PhoneModel
    @State private var values: [String]

    init(form: FormState, model: PhoneModel) {
      self.form = form
      self.model = model
      _values = State(initialValue: form.fields.map(\.value))
    }

    var body: some View {
      NavigationStack {
        Form {
          ForEach(Array(form.fields.enumerated()), id: \.offset) { index, field in
            if index < values.count {
              if field.isSecret {
                SecureField(field.label, text: $values[index])
              } else {
                TextField(field.label, text: $values[index])
                  .textInputAutocapitalization(.never)
                  .autocorrectionDisabled()
              }
            }
          }
          if let problem = form.problem {
            Text(problem).foregroundColor(.red)
          }
        }
        .navigationTitle(form.title)
        .navigationBarTitleDisplayMode(.inline)
        .toolbar {
          ToolbarItem(placement: .cancellationAction) {
            Button(model.text("phone.cancel")) { model.send(.cancel) }
          }
          ToolbarItem(placement: .confirmationAction) {
            Button(model.text("phone.run")) { model.send(.submit(values: values)) }
          }
        }
      }
    }
  }
#endif
