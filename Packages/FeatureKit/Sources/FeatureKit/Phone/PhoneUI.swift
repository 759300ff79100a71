#if os(iOS) && canImport(SwiftUI)
  import SwiftUI
  import ThemeKit
  import UIKit

  /// The theme's colours and sizes for SwiftUI: every phone view draws with these (seed 001's
  /// palette from `tokens.json`, light and dark).
  public enum PhoneStyle {
    /// The semantic colour `name` (`canvas`, `primary` …), following light and dark.
    public static func color(_ name: String) -> Color {
      let theme = Theme.standard
      return Color(
        uiColor: UIColor { traits in
          let appearance: Appearance = traits.userInterfaceStyle == .dark ? .dark : .light
          guard let rgb = theme.color(named: "semantic.\(name)", appearance: appearance) else {
            return .label
          }
          return UIColor(
            red: CGFloat(rgb.r) / 255, green: CGFloat(rgb.g) / 255, blue: CGFloat(rgb.b) / 255,
            alpha: 1)
        })
    }

    /// The colour of a tone.
    public static func color(_ tone: PhoneTone) -> Color { color(tone.rawValue) }

    /// A dimension token in points (`semantic.button.height` …), `fallback` if missing.
    public static func size(_ name: String, _ fallback: CGFloat) -> CGFloat {
      Theme.standard.dimension(named: name).map { CGFloat($0.value) } ?? fallback
    }

    static var canvas: Color { color("canvas") }
    static var surface: Color { color("surface") }
    static var line: Color { color("line") }
    static var cardRadius: CGFloat { size("semantic.card.radius", 14) }
    static var buttonRadius: CGFloat { size("semantic.button.radius", 10) }
  }

  extension View {
    /// A feature screen in the app's look: the brand-coloured bar with its title, the
    /// cool-grey canvas behind the content.
    public func phoneScreen(_ title: String) -> some View {
      self
        .navigationTitle(title)
        .navigationBarTitleDisplayMode(.inline)
        .toolbarBackground(PhoneStyle.color("bar"), for: .navigationBar)
        .toolbarBackground(.visible, for: .navigationBar)
        .toolbarColorScheme(.dark, for: .navigationBar)
        .scrollContentBackground(.hidden)
        .background(PhoneStyle.canvas.ignoresSafeArea())
    }
  }

  /// A white card with a soft border (the seed's card: radius 14).
  public struct PhoneCard<Content: View>: View {
    let content: Content

    /// A card around `content`.
    public init(@ViewBuilder content: () -> Content) {
      self.content = content()
    }

    public var body: some View {
      VStack(alignment: .leading, spacing: 8) { content }
        .padding(14)
        .frame(maxWidth: .infinity, alignment: .leading)
        .background(PhoneStyle.surface)
        .clipShape(RoundedRectangle(cornerRadius: PhoneStyle.cardRadius))
        .overlay(
          RoundedRectangle(cornerRadius: PhoneStyle.cardRadius).strokeBorder(PhoneStyle.line))
    }
  }

  /// A button in the seed's sizes (38, 34 compact, 42 large; radius 10): blue primary, red
  /// danger, white secondary with a border.
  public struct PhoneButtonStyle: ButtonStyle {
    /// The button's kind.
    public enum Kind: Sendable { case primary, secondary, danger }
    let kind: Kind

    /// A style of `kind`.
    public init(_ kind: Kind = .secondary) {
      self.kind = kind
    }

    public func makeBody(configuration: Configuration) -> some View {
      let background: Color =
        switch kind {
        case .primary: PhoneStyle.color("primary")
        case .danger: PhoneStyle.color("danger")
        case .secondary: PhoneStyle.surface
        }
      let foreground: Color =
        kind == .secondary ? PhoneStyle.color("ink") : PhoneStyle.color("onPrimary")
      return configuration.label
        .font(.body.weight(.semibold))
        .foregroundColor(foreground)
        .frame(maxWidth: .infinity, minHeight: PhoneStyle.size("semantic.button.height", 38))
        .padding(.horizontal, 12)
        .background(background)
        .clipShape(RoundedRectangle(cornerRadius: PhoneStyle.buttonRadius))
        .overlay(
          RoundedRectangle(cornerRadius: PhoneStyle.buttonRadius)
            .strokeBorder(kind == .secondary ? PhoneStyle.line : .clear)
        )
        .opacity(configuration.isPressed ? 0.75 : 1)
    }
  }

  /// A small capsule with a tone's colour: a status, a state.
  public struct PhoneBadge: View {
    let text: String
    let tone: PhoneTone

    /// A badge.
    public init(_ text: String, tone: PhoneTone) {
      self.text = text
      self.tone = tone
    }

    public var body: some View {
      Text(text)
        .font(.caption.weight(.semibold))
        .lineLimit(1)
        .padding(.horizontal, 8)
        .padding(.vertical, 3)
        .foregroundColor(PhoneStyle.color(tone))
        .background(Capsule().fill(PhoneStyle.color(tone).opacity(0.14)))
    }
  }

  /// A filter chip: a menu of choices under a title, highlighted when it filters.
  public struct PhoneFilterChip: View {
    let title: String
    let choices: [(id: String?, title: String)]
    let selected: String?
    let choose: (String?) -> Void

    /// A chip offering `choices` (`nil` id: no filter).
    public init(
      _ title: String, choices: [(id: String?, title: String)], selected: String?,
      choose: @escaping (String?) -> Void
    ) {
      self.title = title
      self.choices = choices
      self.selected = selected
      self.choose = choose
    }

    public var body: some View {
      Menu {
        ForEach(Array(choices.enumerated()), id: \.offset) { _, choice in
          Button {
            choose(choice.id)
          } label: {
            if choice.id == selected {
              Label(choice.title, systemImage: "checkmark")
            } else {
              Text(choice.title)
            }
          }
        }
      } label: {
        HStack(spacing: 4) {
          Text(title).lineLimit(1)
          Image(systemName: "chevron.down").font(.caption2)
        }
        .font(.subheadline)
        .padding(.horizontal, 12)
        .padding(.vertical, 6)
        .foregroundColor(selected == nil ? PhoneStyle.color("ink") : PhoneStyle.color("onPrimary"))
        .background(
          Capsule().fill(selected == nil ? PhoneStyle.surface : PhoneStyle.color("primary"))
        )
        .overlay(Capsule().strokeBorder(PhoneStyle.line))
      }
    }
  }

  /// A screen or section with nothing to list: loading, empty or failed, with its action.
  public struct PhonePlaceholder: View {
    let symbol: String
    let title: String
    let message: String?
    let action: (title: String, run: () -> Void)?

    /// A placeholder.
    public init(
      symbol: String, title: String, message: String? = nil,
      action: (title: String, run: () -> Void)? = nil
    ) {
      self.symbol = symbol
      self.title = title
      self.message = message
      self.action = action
    }

    public var body: some View {
      VStack(spacing: 12) {
        Image(systemName: symbol).font(.largeTitle).foregroundColor(PhoneStyle.color("muted"))
        Text(title).font(.headline).multilineTextAlignment(.center)
        if let message {
          Text(message).font(.subheadline).foregroundColor(PhoneStyle.color("muted"))
            .multilineTextAlignment(.center)
        }
        if let action {
          Button(action.title, action: action.run).buttonStyle(PhoneButtonStyle(.primary))
            .frame(maxWidth: 280)
        }
      }
      .padding(24)
      .frame(maxWidth: .infinity)
    }
  }

  /// A notice line in its tone.
  public struct PhoneNoticeView: View {
    let notice: PhoneNotice

    /// A notice.
    public init(_ notice: PhoneNotice) {
      self.notice = notice
    }

    public var body: some View {
      Label {
        Text(notice.text).font(.subheadline)
      } icon: {
        Image(
          systemName: notice.tone == .success
            ? "checkmark.circle.fill"
            : notice.tone == .danger ? "xmark.octagon.fill" : "exclamationmark.triangle.fill")
      }
      .foregroundColor(PhoneStyle.color(notice.tone))
    }
  }

  /// A label and its value; at large text sizes the value goes under the label.
  public struct PhoneValueRow: View {
    let label: String
    let value: String
    let tone: PhoneTone?

    /// A row.
    public init(_ label: String, _ value: String, tone: PhoneTone? = nil) {
      self.label = label
      self.value = value
      self.tone = tone
    }

    public var body: some View {
      ViewThatFits(in: .horizontal) {
        HStack(alignment: .firstTextBaseline) {
          Text(label).foregroundColor(PhoneStyle.color("muted"))
          Spacer(minLength: 12)
          Text(value).multilineTextAlignment(.trailing)
            .foregroundColor(tone.map(PhoneStyle.color) ?? PhoneStyle.color("ink"))
        }
        VStack(alignment: .leading, spacing: 2) {
          Text(label).font(.subheadline).foregroundColor(PhoneStyle.color("muted"))
          Text(value).foregroundColor(tone.map(PhoneStyle.color) ?? PhoneStyle.color("ink"))
        }
      }
      .textSelection(.enabled)
    }
  }

  /// A verification code that one tap copies.
  public struct PhoneCodeChip: View {
    let shown: String
    let label: String
    let copy: () -> String

    /// A chip showing `shown` (masked or not); a tap copies what `copy` returns.
    public init(shown: String, label: String, copy: @escaping () -> String) {
      self.shown = shown
      self.label = label
      self.copy = copy
    }

    public var body: some View {
      Button {
        UIPasteboard.general.string = copy()
      } label: {
        HStack(spacing: 6) {
          Image(systemName: "doc.on.doc")
          Text(shown).font(.body.monospaced().weight(.semibold))
        }
        .padding(.horizontal, 12)
        .padding(.vertical, 6)
        .foregroundColor(PhoneStyle.color("primary"))
        .background(Capsule().fill(PhoneStyle.color("primary").opacity(0.12)))
      }
      .buttonStyle(.plain)
      .accessibilityLabel(label)
    }
  }

  /// Runs `action` as a task (what a view's buttons do with a model's async messages).
  @MainActor
  public func phoneTask(_ action: @escaping @MainActor () async -> Void) {
    Task { @MainActor in await action() }
  }
#endif
