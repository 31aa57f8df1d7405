#if Macros
import SwiftSyntax

/// Swift's access levels in order, as far as generated members need them.
enum AccessLevel: Int, Comparable {
    case `private`, `fileprivate`, `internal`, `package`, `public`

    static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level a declaration's modifiers give to reading it (`internal` when none).
    static func of(_ modifiers: DeclModifierListSyntax) -> AccessLevel {
        for modifier in modifiers where modifier.detail == nil {
            if let level = AccessLevel(keyword: modifier.name.tokenKind) { return level }
        }
        return .internal
    }

    /// The level a declaration's modifiers give to writing it (`private(set)` and the like lower it).
    static func ofSetter(_ modifiers: DeclModifierListSyntax) -> AccessLevel {
        for modifier in modifiers where modifier.detail?.detail.text == "set" {
            if let level = AccessLevel(keyword: modifier.name.tokenKind) { return level }
        }
        return of(modifiers)
    }

    init?(keyword: TokenKind) {
        switch keyword {
        case .keyword(.private): self = .private
        case .keyword(.fileprivate): self = .fileprivate
        case .keyword(.internal): self = .internal
        case .keyword(.package): self = .package
        case .keyword(.public), .keyword(.open): self = .public
        default: return nil
        }
    }

    /// The modifier (with a trailing space) that gives a member of a nested type this level, or
    /// nothing when the default suffices. `private` becomes `fileprivate`: a `private` member of
    /// the nested type would be out of reach of the type it describes.
    var memberModifier: String {
        switch self {
        case .public: "public "
        case .package: "package "
        case .internal: ""
        case .fileprivate, .private: "fileprivate "
        }
    }
}
#endif
