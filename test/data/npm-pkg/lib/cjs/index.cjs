"use strict";
var __importStar = (this && this.__importStar) || function (mod) { return mod; };
var __exportStar = (this && this.__exportStar) || function (m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) exports[p] = m[p];
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.Sink = exports.Doc = exports.shapes = void 0;
var Doc = require("./doc.cjs");
const shapes = __importStar(require("./shapes.cjs"));
exports.shapes = shapes;
exports.Doc = Doc.Doc;
exports.Sink = Doc.Sink;
__exportStar(require("./shapes.cjs"), exports);
