import Testing
import ThemeKit
import ViewKit

@Suite struct TokenTests {
  @Test(arguments: Tone.allCases)
  func everyToneNamesAnExistingToken(tone: Tone) {
    #expect(Theme.standard.hasToken(tone.tokenName))
  }

  @Test(arguments: TextStyle.allCases)
  func everyStyleNamesAnExistingToken(style: TextStyle) {
    #expect(Theme.standard.hasToken(style.tokenName))
  }

  @Test(arguments: ButtonRole.allCases)
  func everyRoleNamesAnExistingToken(role: ButtonRole) {
    #expect(Theme.standard.hasToken(role.tokenName))
  }

  @Test func everyTokenTheSampleTreeNamesExists() {
    let names = Fixtures.everything.tokenNames()
    #expect(names.contains("semantic.warning"))
    #expect(names.contains("semantic.line"))
    for name in names {
      #expect(Theme.standard.hasToken(name), "\(name)")
    }
  }
}
