import Testing

@testable import DeviceModulesFeature

@Suite("Catalogue")
struct CatalogueTests {
  @Test("every key has English and Chinese text with the same placeholders")
  func complete() {
    #expect(DeviceModulesStrings.catalogue.problems().isEmpty)
  }
}
