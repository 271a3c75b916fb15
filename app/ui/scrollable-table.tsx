import { DataTable, type DataTableProps } from "@shopify/polaris";
import { useEffect, useRef } from "react";

/**
 * Polaris' DataTable, whose horizontal scroll (a narrow screen, a wide table) a keyboard can reach:
 * WCAG asks that a scrollable region be focusable, and Polaris' scroll container is not (axe
 * `scrollable-region-focusable`, serious). Once mounted, its scroll container becomes a named,
 * focusable region. Polaris offers no prop for it; its class name is the one it documents in its CSS.
 */
export function ScrollableDataTable({ label, ...props }: DataTableProps & { label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = ref.current?.querySelector<HTMLElement>(".Polaris-DataTable__ScrollContainer");
    if (!scroller) return;
    scroller.tabIndex = 0;
    scroller.setAttribute("role", "region");
    scroller.setAttribute("aria-label", label);
  }, [label]);
  return (
    <div ref={ref} data-scrollable-table="">
      <DataTable {...props} />
    </div>
  );
}
