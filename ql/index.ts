/** Public surface of the query layer (parser, planner, executor). */
export {};
