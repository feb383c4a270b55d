import { Badge, Button, Card, Group, Image, Stack, Text } from '@mantine/core';
import { formatProductPrice, productJa, type Product } from '@tenpo/domain';

/** A product's card (spec 2 §2): its photo, name, category and price "¥min〜¥max" or "¥price". */
export function ProductCard({
  product,
  onEdit,
  onDelete,
}: {
  product: Product;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const price = formatProductPrice(product);
  const photo = product.files[0];
  return (
    <Card withBorder padding="md" role="article" aria-label={product.productName}>
      {photo && (
        <Card.Section>
          <Image
            src={photo.url}
            alt={productJa.photoAlt(product.productName, 1)}
            h={140}
            fit="cover"
          />
        </Card.Section>
      )}
      <Stack gap={6} mt={photo ? 'sm' : 0}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} lineClamp={2}>
            {product.productName}
          </Text>
          <Badge variant="light" tt="none" style={{ flexShrink: 0 }}>
            {product.category}
          </Badge>
        </Group>
        <Text size="lg" fw={700} c={price ? undefined : 'dimmed'}>
          {price ?? productJa.noPrice}
        </Text>
        {product.productDescription && (
          <Text size="sm" c="dimmed" lineClamp={2}>
            {product.productDescription}
          </Text>
        )}
        <Group gap="xs" mt={4}>
          <Button size="xs" variant="light" onClick={onEdit}>
            {productJa.edit}
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={onDelete}>
            {productJa.delete}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
