import { describe, expect, it } from "vitest";
import { countInstructions, perCall } from "../src/instructions.js";

// The shape of `callgrind_annotate --threshold=100` output (valgrind 3.19), shortened.
const annotated = `--------------------------------------------------------------------------------
Profile data file 'x.out-01' (creator: callgrind-3.19.0)
--------------------------------------------------------------------------------
Events recorded:  Ir
--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
1,000,000 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
400,000 (40.00%)  ???:0x000000000d0bb0c0 [???]
200,000 (20.00%)  ???:v8::internal::compiler::GraphReducer::ReduceTop() [/usr/bin/node]
 50,000 ( 5.00%)  ???:std::_Rb_tree_insert_and_rebalance(bool, std::_Rb_tree_node_base*) [/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30]
100,000 (10.00%)  ???:heap::base::SlotCallbackResult v8::internal::Scavenger::ScavengeObject<v8::internal::FullHeapObjectSlot>(v8::internal::FullHeapObjectSlot) [/usr/bin/node]
 30,000 ( 3.00%)  ???:v8::internal::MarkingBarrier::Write(v8::internal::HeapObject) [/usr/bin/node]
 20,000 ( 2.00%)  ???:Builtins_LoadIC [/usr/bin/node]
`;

describe("countInstructions", () => {
  it("takes the program total and sorts the functions into compiler, collector and the rest", () => {
    expect(countInstructions(annotated)).toEqual({
      total: 1_000_000,
      compiler: 250_000,
      gc: 130_000,
      rest: 620_000,
    });
  });

  it("counts nothing in a file without a total (a thread that ran nothing)", () => {
    expect(countInstructions("Ir file:function\n")).toEqual({ total: 0, compiler: 0, gc: 0, rest: 0 });
  });
});

describe("perCall", () => {
  it("divides the difference between the run with calls and the one without", () => {
    const withCalls = { total: 5_000, compiler: 1_500, gc: 500, rest: 3_000 };
    const without = { total: 2_000, compiler: 1_000, gc: 500, rest: 500 };
    expect(perCall(withCalls, without, 10)).toEqual({ total: 300, compiler: 50, gc: 0, rest: 250 });
  });
});
