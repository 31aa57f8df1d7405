#if Macros
import SwiftSyntax

extension PrismsMacro {
    /// One enum case and what its prism needs.
    struct Case {
        /// The case's name without backticks (for messages, comments and derived names).
        let name: String
        /// The name as written, backticks kept: what generated declarations and member accesses use.
        let spelled: String
        let element: EnumCaseElementSyntax
        /// The payload's values: label (or `nil`) and type.
        let values: [(label: String?, type: String)]
        /// Whether the payload is one value of function type (a parameter taking it must be `@escaping`).
        var isFunctionPayload = false

        /// The optional property's wrapped type: `Void`, the single value's type, or a tuple.
        var payloadType: String {
            switch values.count {
            case 0: return "Void"
            case 1: return values[0].type
            default: return "(" + values.map { ($0.label.map { "\($0): " } ?? "") + $0.type }.joined(separator: ", ") + ")"
            }
        }

        /// `Optional` of the payload type, parenthesised where `?` would bind to a part of it.
        var optionalPayloadType: String {
            guard values.count == 1 else { return payloadType + "?" }
            let type = values[0].type
            let needsParentheses =
                type.contains("->") || type.hasPrefix("any ") || type.hasPrefix("some ") || type.hasPrefix("@") || type.contains("&")
            return needsParentheses ? "(\(type))?" : "\(type)?"
        }

        /// `.name` or `.name(let v0, let v1)`.
        var pattern: String {
            switch values.count {
            case 0: return ".\(spelled)"
            case 1: return ".\(spelled)(let value)"
            default: return ".\(spelled)(" + values.indices.map { "let v\($0)" }.joined(separator: ", ") + ")"
            }
        }

        /// The payload bound by ``pattern``, as a value of ``payloadType``.
        var payloadValue: String {
            switch values.count {
            case 0: return "()"
            case 1: return "value"
            default: return "(" + values.indices.map { (values[$0].label.map { "\($0): " } ?? "") + "v\($0)" }.joined(separator: ", ") + ")"
            }
        }

        /// The case built from `payload` (a value of ``payloadType``), as an implicit member: the
        /// enum's type is known where it is used, and neither the type's name nor `Self` can be
        /// shadowed by a case property then (a case named like the enum, or `` `Self` ``).
        func construction(from payload: String) -> String {
            switch values.count {
            case 0: return ".\(spelled)"
            case 1: return ".\(spelled)(\(values[0].label.map { "\($0): " } ?? "")\(payload))"
            default:
                return ".\(spelled)("
                    + values.indices.map { (values[$0].label.map { "\($0): " } ?? "") + "\(payload).\($0)" }.joined(separator: ", ") + ")"
            }
        }

        /// The key path of the case property on `typeName`. When a case property shadows the
        /// enum's name (a case named like the enum), the root is given as a type, where no
        /// property can shadow it: `(\.name as WritableKeyPath<Enum, Payload?>)`.
        func keyPath(typeName: String, shadowed: Bool) -> String {
            shadowed
                ? "(\\.\(spelled) as WritableKeyPath<\(typeName), \(optionalPayloadType)>)"
                : Spelling.keyPath(root: typeName, member: spelled, name: name)
        }
    }

    static func collectCases(_ enumDecl: EnumDeclSyntax) -> [Case] {
        enumDecl.memberBlock.members.flatMap { member -> [Case] in
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { return [] }
            return caseDecl.elements.map { element in
                let values =
                    element.parameterClause?.parameters.map { parameter -> (label: String?, type: String) in
                        let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : Spelling.label($0) }
                        return (label, parameter.type.trimmedDescription)
                    } ?? []
                var item = Case(name: Spelling.name(of: element.name), spelled: Spelling.spelled(element.name), element: element, values: values)
                if let parameters = element.parameterClause?.parameters, parameters.count == 1, let type = parameters.first?.type {
                    let bare = type.as(AttributedTypeSyntax.self)?.baseType ?? type
                    item.isFunctionPayload = bare.is(FunctionTypeSyntax.self)
                }
                return item
            }
        }
    }
}
#endif
