"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.area = void 0;
function area(shape) {
    if (shape.w < 0)
        throw new RangeError("width must not be negative");
    return shape.w * shape.h;
}
exports.area = area;
