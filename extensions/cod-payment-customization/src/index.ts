export * from "./cart_payment_methods_transform_run";
