import SwiftRex
