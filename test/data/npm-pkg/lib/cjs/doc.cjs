"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Sink = exports.Doc = void 0;
class Doc {
    constructor(errors) {
        this.errors = errors;
    }
    toString() {
        if (this.errors.length > 0)
            throw new Error("Document with errors cannot be stringified");
        return "";
    }
    compact(node) {
        if (node.kind === "map")
            return node;
        if (node.kind === "seq")
            return node;
        throw new Error("this cannot happen: unknown node kind");
    }
}
exports.Doc = Doc;
class Sink {
    constructor(name) {
        this.name = name;
        this.closed = false;
        this.chunks = [];
        Object.defineProperty(this, Symbol.toStringTag, { value: "Sink" });
    }
    write(chunk) {
        if (this.closed)
            throw new Error("write after close");
        this.chunks.push(chunk);
    }
    end() {
        if (this.chunks.length === 0)
            throw new Error("nothing was written");
        this.closed = true;
    }
    close() {
        this.closed = true;
    }
}
exports.Sink = Sink;
