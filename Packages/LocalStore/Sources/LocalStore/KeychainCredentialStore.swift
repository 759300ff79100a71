#if canImport(Security)
  import Foundation
  import Security

  /// Passwords in the Keychain (generic passwords, one per instance id), for Apple platforms.
  public final class KeychainCredentialStore: CredentialStore {
    /// The Keychain service name the items are filed under.
    public let service: String

    /// A store filing items under `service`.
    public init(service: String = "MultiSimAdmin") {
      self.service = service
    }

    private func query(_ instanceID: String?, service: String? = nil) -> [String: Any] {
      var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service ?? self.service,
      ]
      if let instanceID { query[kSecAttrAccount as String] = instanceID }
      return query
    }

    /// Refusals are items of their own, under `<service>.refused`.
    private var refusalService: String { service + ".refused" }

    /// The stored password of an instance, or `nil`.
    public func password(for instanceID: String) throws(CredentialError) -> String? {
      var search = query(instanceID)
      search[kSecReturnData as String] = true
      var item: CFTypeRef?
      let status = SecItemCopyMatching(search as CFDictionary, &item)
      if status == errSecItemNotFound { return nil }
      guard status == errSecSuccess, let data = item as? Data else {
        throw .keychain(status: status)
      }
      return String(decoding: data, as: UTF8.self)
    }

    /// Stores (or replaces) an instance's password.
    public func setPassword(_ password: String, for instanceID: String) throws(CredentialError) {
      let data = Data(password.utf8)
      let status = SecItemUpdate(
        query(instanceID) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
      if status == errSecItemNotFound {
        var item = query(instanceID)
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecSuccess else { throw .keychain(status: added) }
      } else if status != errSecSuccess {
        throw .keychain(status: status)
      }
      try forgetRefusal(of: instanceID)
    }

    /// Forgets an instance's password (and its refusal).
    public func removePassword(for instanceID: String) throws(CredentialError) {
      let status = SecItemDelete(query(instanceID) as CFDictionary)
      guard status == errSecSuccess || status == errSecItemNotFound else {
        throw .keychain(status: status)
      }
      try forgetRefusal(of: instanceID)
    }

    /// When and where a device refused the stored password of an instance.
    public func refusal(for instanceID: String) throws(CredentialError) -> PasswordRefusal? {
      var search = query(instanceID, service: refusalService)
      search[kSecReturnData as String] = true
      var item: CFTypeRef?
      let status = SecItemCopyMatching(search as CFDictionary, &item)
      if status == errSecItemNotFound { return nil }
      guard status == errSecSuccess, let data = item as? Data else {
        throw .keychain(status: status)
      }
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      return try? decoder.decode(PasswordRefusal.self, from: data)
    }

    /// Remembers that `password`, if still the stored one, was refused at `origin`.
    public func recordRefusal(
      of password: String, for instanceID: String, origin: String, at: Date
    ) throws(CredentialError) {
      guard try self.password(for: instanceID) == password else { return }
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .iso8601
      guard let data = try? encoder.encode(PasswordRefusal(origin: origin, at: at)) else { return }
      try forgetRefusal(of: instanceID)
      var item = query(instanceID, service: refusalService)
      item[kSecValueData as String] = data
      item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
      let added = SecItemAdd(item as CFDictionary, nil)
      guard added == errSecSuccess else { throw .keychain(status: added) }
    }

    private func forgetRefusal(of instanceID: String) throws(CredentialError) {
      let status = SecItemDelete(query(instanceID, service: refusalService) as CFDictionary)
      guard status == errSecSuccess || status == errSecItemNotFound else {
        throw .keychain(status: status)
      }
    }

    /// The ids of instances that have a stored password, sorted.
    public func instanceIDsWithPasswords() throws(CredentialError) -> [String] {
      var search = query(nil)
      search[kSecReturnAttributes as String] = true
      search[kSecMatchLimit as String] = kSecMatchLimitAll
      var items: CFTypeRef?
      let status = SecItemCopyMatching(search as CFDictionary, &items)
      if status == errSecItemNotFound { return [] }
      guard status == errSecSuccess, let list = items as? [[String: Any]] else {
        throw .keychain(status: status)
      }
      return list.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }
  }
#endif
