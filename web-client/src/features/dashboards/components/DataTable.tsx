import type { ReactNode } from "react";

/**
 * A dashboard table: named by a heading, one column per name plus an unnamed
 * actions column (labelled for screen readers), scrolling sideways on narrow
 * screens. `children` are the body rows.
 */
export function DataTable({
  labelledBy,
  columns,
  children,
}: {
  labelledBy: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table className="data-table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
