@_exported import AppCore
import Essentials
import FeatureKit
import Foundation
import ViewKit

// The console is one shell over the app core: its model (routes, loading, actions, forms,
// confirmations, selection, search and refresh rules) is `AppCore`'s, re-exported so users of
// the console see one vocabulary. What is the console's own: key presses, the terminal's
// size, the bottom-line prompts, the key help, and scrolling by lines.

/// A tab of the console.
public typealias ConsoleTab = AppTab
/// What the console's update reads besides the state: the registry and the language, and
/// the app core's context over them with the console's wording.
public struct ConsoleContext: Sendable {
  /// The app's features.
  public let registry: FeatureRegistry
  /// The console's language.
  public let language: AppLanguage
  /// The same for the app core, which words some sentences as the console's catalogue does.
  public let app: AppContext
  /// Whether `c` copies the selected row's code to the terminal's clipboard (OSC 52);
  /// `msa ui --no-clipboard` turns the key off.
  public let clipboard: Bool
  /// Seconds between two refreshes of a screen watched with `w`.
  public let watchInterval: Int

  /// A context.
  public init(
    registry: FeatureRegistry, language: AppLanguage, clipboard: Bool = true,
    watchInterval: Int = 5
  ) {
    self.registry = registry
    self.language = language
    self.clipboard = clipboard
    self.watchInterval = max(1, watchInterval)
    app = AppContext(registry: registry, language: language, wording: ConsoleStrings.catalogue)
  }

  /// A sentence of the console's catalogue in the console's language.
  func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
    ConsoleStrings.text(key, language, arguments)
  }

  /// The route at `path`, if this build has one.
  func route(_ path: String) -> FeatureRoute? {
    app.route(path)
  }
}
/// What the console's runtime does on the update's behalf.
public typealias ConsoleEffect = AppEffect

/// What a prompt at the bottom line is collecting.
public enum PromptPurpose: Sendable, Equatable {
  case search
  case filter
}

/// A line of text being typed.
public struct Prompt: Sendable, Equatable {
  /// What it is for.
  public var purpose: PromptPurpose
  /// The label shown before the text.
  public var label: String
  /// What has been typed.
  public var text: String
}

/// What the console is doing with key presses.
public enum ConsoleMode: Sendable, Equatable {
  case browsing
  case prompting(Prompt)
  case form(FormState)
  case confirming(PendingConfirmation)
  /// The key help, scrolled to the given line.
  case help(scroll: Int)
}

/// What only the console shows over the core's state: a prompt or the key help.
public enum ConsoleOverlay: Sendable, Equatable {
  case prompting(Prompt)
  case help(scroll: Int)
}

/// The whole state of the console: the app core's state plus the terminal's size and the
/// console's own overlays; ``ConsoleUpdate`` is the only thing that changes it.
public struct ConsoleState: Sendable, Equatable {
  /// The app core's state.
  public var app: AppState
  /// The prompt or key help shown, if any.
  public var overlay: ConsoleOverlay?
  /// Text the user asked to copy with `c`, for the runtime to send to the terminal's
  /// clipboard once (then cleared); never part of a frame.
  public var clipboard: String?
  /// The screen watched with `w`: refreshed (its sync run) every few seconds while it is
  /// open; closing it, or `w` again, stops the watch.
  public var watch: Watch?
  /// Whether the console refreshes its screens by itself (`msa ui --refresh N`; set by the
  /// first tick): like a watched screen, a screen whose cursor is on its first row then
  /// follows the top as each refresh brings new rows.
  public var refreshesItself = false
  /// Terminal columns.
  public var width: Int
  /// Terminal rows.
  public var height: Int

  /// The console's first state: every tab at its home route, the first tab shown.
  public init(tabs: [ConsoleTab], width: Int, height: Int) {
    app = AppState(tabs: tabs)
    overlay = nil
    clipboard = nil
    watch = nil
    self.width = width
    self.height = height
  }

  /// Tabs from a registry: each module with a home route, in the registry's order.
  public static func tabs(of registry: FeatureRegistry, language: AppLanguage) -> [ConsoleTab] {
    AppState.tabs(of: registry, language: language)
  }

  /// How keys are read: an overlay of the console's, else the core's form or confirmation.
  public var mode: ConsoleMode {
    get {
      switch (overlay, app.activity) {
      case (.prompting(let prompt)?, _): .prompting(prompt)
      case (.help(let scroll)?, _): .help(scroll: scroll)
      case (nil, .form(let form)?): .form(form)
      case (nil, .confirming(let confirmation)?): .confirming(confirmation)
      case (nil, nil): .browsing
      }
    }
    set {
      switch newValue {
      case .browsing: (overlay, app.activity) = (nil, nil)
      case .prompting(let prompt): (overlay, app.activity) = (.prompting(prompt), nil)
      case .help(let scroll): (overlay, app.activity) = (.help(scroll: scroll), nil)
      case .form(let form): (overlay, app.activity) = (nil, .form(form))
      case .confirming(let confirmation): (overlay, app.activity) = (nil, .confirming(confirmation))
      }
    }
  }

  /// The tabs, in module order.
  public var tabs: [ConsoleTab] { app.tabs }
  /// The tab shown.
  public var activeTab: Int {
    get { app.activeTab }
    set { app.activeTab = newValue }
  }
  /// One navigation stack per tab; never empty.
  public var stacks: [[ScreenState]] {
    get { app.stacks }
    set { app.stacks = newValue }
  }
  /// The screen shown.
  public var screen: ScreenState {
    get { app.screen }
    set { app.screen = newValue }
  }
  /// Row ids with an action still running.
  public var pending: Set<String> { app.pending }
  /// Actions still running.
  public var running: Int { app.running }
  /// When any screen last finished loading.
  public var lastRefresh: Date? { app.lastRefresh }
  /// Set when the user quits.
  public var shouldQuit: Bool {
    get { app.shouldQuit }
    set { app.shouldQuit = newValue }
  }

  /// Rows of the body: the height minus the tab bar, the title, the status and key lines,
  /// and the lines a long result takes above the status line.
  public var bodyHeight: Int {
    // The question's lines above the key line (its last line is the key line).
    let question = max(0, ConsoleRenderer.questionLines(self).count - 1)
    return max(
      1, height - 4 - ConsoleRenderer.resultLines(screen.result, width: width).count - question)
  }

  /// A fresh number.
  mutating func takeID() -> Int {
    app.takeID()
  }
}

/// Everything that can happen to the console.
public enum ConsoleMessage: Sendable, Equatable {
  case key(Key)
  case resized(width: Int, height: Int)
  /// A route finished loading.
  case loaded(path: String, view: ViewNode, at: Date)
  /// One run of a batch finished.
  case finished(batch: Int, affected: [String], outcome: ActionOutcome)
  /// The `--refresh` timer fired.
  case tick
  /// A second passed (what a watch counts).
  case heartbeat
  /// SIGINT or SIGTERM: quit, whatever is on screen (a form or a prompt included).
  case stop
  /// The terminal went away (SIGHUP: its window closed, the tmux session killed, the ssh
  /// connection dropped; or its reads fail): quit without writing to it.
  case terminalGone
}

/// A screen watched with `w`.
public struct Watch: Sendable, Equatable {
  /// The watched screen.
  public var screenID: Int
  /// Seconds between refreshes.
  public var interval: Int
  /// Seconds until the next refresh.
  public var remaining: Int
}
